import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { INVOICE_PENDING, invoiceForm } from "~/forms/invoice/handle.server";
import {
  findInvoiceReceipt,
  INVOICE_REFERENCE_PATTERN,
  invoiceReceiptPath,
  paymentDay,
  verifiedPaymentId,
} from "~/forms/invoice/receipt.server";
import { AMOUNT_MESSAGES } from "~/forms/invoice/schema";
import { CAPTCHA_PASS_RETRIES } from "~/forms/captcha/pass.server";
import { captchaPassOf, SPAM_CHECK_MESSAGE } from "~/forms/captcha/types";
import {
  FormFailure,
  PAYMENT_CANCELLED_MESSAGE,
  PAYMENT_DECLINED_MESSAGE,
  runForm,
  type FormDefinition,
  type FormOutcome,
} from "~/forms/pipeline";
import { CARD_MESSAGES } from "~/payments/card";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { captureLogs, invoiceFields, secretsIn } from "./payments-support";

/**
 * Pay Invoice on the real database with the real sandbox gateway: the paid
 * step of the form pipeline (charge once per submission key before the
 * transaction; declined → nothing stored but the attempt; unknown → stored as
 * pending and said so; a failed store voids the charge: a void on the
 * ledger, the company told), the amount read on
 * the server only (as people type it: "1,000"), the receipt with its
 * reference and date and its signed address, a declined card's captcha pass
 * for the render's next post, and no card number or CVC in any table or log
 * call.
 */
let conn: Connection;
const logs = captureLogs();
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  logs.restore();
  await conn?.close();
});

const DECLINED = "4000 0000 0000 0002";
const UNKNOWN = "4000 0000 0000 0119";

function htmlPost(
  fields: Record<string, string>,
  key: string | null = crypto.randomUUID(),
  captcha: Record<string, string> = sumAnswer(),
) {
  return formPost(
    "/pay-invoice",
    toFormData({ ...fields, ...honeypotFields(), ...captcha, ...(key ? { submission_key: key } : {}) }),
  );
}

/** The captcha pass a refused post's answer carries for its render's next post. */
const passOf = (outcome: FormOutcome) => captchaPassOf(outcome.reply?.initialValue);

const run = (request: Request, def: FormDefinition = invoiceForm) =>
  runForm(def, request, { db: conn.db, clientIp: nextIp() });

async function state() {
  return {
    payments: await count(conn.db, "payments"),
    invoices: await count(conn.db, "invoice_payments"),
    mail: await count(conn.db, "outbox"),
    keys: await count(conn.db, "submission_keys"),
  };
}

describe("pay invoice", () => {
  it("approved: charged $250.50 once, the row, the receipt and the company copy queued, redirected to the signed receipt", async () => {
    const before = await state();
    const fields = invoiceFields();
    const outcome = await run(htmlPost(fields));
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    const [invoice] = await rows<{
      id: number;
      status: string;
      amount_cents: number;
      payment_id: number;
      client_ip: string;
      reference: string;
      created_at: string;
    }>(conn.db, `select * from invoice_payments where email = '${fields.email}'`);
    expect(invoice).toMatchObject({ status: "paid", amount_cents: 25050 });
    expect(invoice!.reference).toMatch(INVOICE_REFERENCE_PATTERN);
    expect(outcome.message).toBe(
      `Submitted successfully! $250.50 charged to Visa ending in 4242 for invoice INV-1001. Reference: ${invoice!.reference}.`,
    );
    const [payment] = await rows(conn.db, `select * from payments where id = ${invoice!.payment_id}`);
    expect(payment).toMatchObject({
      kind: "charge",
      state: "succeeded",
      amount_cents: 25050,
      purpose: "invoice",
      intent: "invoice",
      brand: "Visa",
      last4: "4242",
      reference_table: "invoice_payments",
      reference_id: invoice!.id,
    });
    expect(outcome.redirectTo).toBe(invoiceReceiptPath(invoice!.payment_id));

    const mail = await rows<{ to: string; subject: string; text: string; kind: string }>(
      conn.db,
      `select "to", subject, text, kind from outbox where source_table = 'invoice_payments' and source_id = ${invoice!.id} order by id`,
    );
    expect(mail.map((m) => m.kind)).toEqual(["company", "receipt"]);
    const receipt = mail.find((m) => m.to === fields.email)!;
    expect(receipt.subject).toContain("Payment receipt for invoice INV-1001");
    // The visitor's mail leads with the reference, the date, the invoice number and the amount.
    const day = paymentDay(new Date(invoice!.created_at));
    expect(receipt.text).toContain(
      [
        "Thank you, Ada Lovelace. $250.50 charged to Visa ending in 4242 for invoice INV-1001. Keep this e-mail for your records.",
        "",
        `Reference: ${invoice!.reference}`,
        `Date: ${day}`,
        "Invoice number: INV-1001",
        "Amount paid: $250.50, charged to Visa ending in 4242",
      ].join("\n"),
    );
    expect(receipt.text).not.toMatch(/Cardholder|Card Number|CVC|Expiry|payment #/);
    expect(receipt.text).not.toContain(`invoice_payments #${invoice!.id}`);
    expect(mail[0]!.text).toContain("INV-1001");
    expect(mail[0]!.text).toContain(`Reference: ${invoice!.reference}`);
    expect(await state()).toEqual({
      payments: before.payments + 1,
      invoices: before.invoices + 1,
      mail: before.mail + 2,
      keys: before.keys + 1,
    });

    // The receipt page's data: by signed id only.
    const url = new URL(`http://localhost${outcome.redirectTo}`);
    const sig = url.searchParams.get("sig");
    const id = verifiedPaymentId(url.pathname.split("/").pop(), sig)!;
    expect(await findInvoiceReceipt(conn.db, id)).toMatchObject({
      status: "paid",
      reference: invoice!.reference,
      date: day,
      amount: "$250.50",
      brand: "Visa",
      last4: "4242",
      invoiceNumber: "INV-1001",
    });
    expect(verifiedPaymentId(String(id + 1), sig)).toBeNull(); // another number, the same signature
    expect(verifiedPaymentId(String(id), null)).toBeNull();
  });

  it("the HTML action answers 303 to the receipt; the API answers { success, message } and charges once per request", async () => {
    const thrown = await formAction(
      invoiceForm,
      { request: htmlPost(invoiceFields()) },
      { db: conn.db, clientIp: nextIp() },
    ).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(303);
    expect((thrown as Response).headers.get("Location")).toMatch(/^\/pay-invoice\/receipt\/\d+\?sig=/);

    const before = await state();
    const body = {
      ...invoiceFields({ invoice_number: "INV-API" }),
      client_ip: "198.51.100.1",
      total: "1.00",
      recaptcha_token: "x",
    };
    const response = await apiFormAction(
      invoiceForm,
      { request: formPost("/api/store/pay-invoice/submit", body, { Origin: "", "Sec-Fetch-Site": "" }) },
      { db: conn.db, clientIp: nextIp() },
    );
    // The API has no sum to answer: the captcha refuses it, and nothing was charged.
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, message: "Please complete the CAPTCHA." });
    expect(await state()).toEqual(before);

    // With a solved captcha: paid, answered { success, message }, no redirect; the posted total and client_ip are not believed.
    const paid = { ...body, invoice_number: "INV-API-OK", recaptcha_token: await altchaToken() };
    const ok = await apiFormAction(
      invoiceForm,
      { request: formPost("/api/store/pay-invoice/submit", paid, { Origin: "", "Sec-Fetch-Site": "" }) },
      { db: conn.db, clientIp: "203.0.113.250" },
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      success: true,
      message: expect.stringMatching(
        /^Submitted successfully! \$250\.50 charged to Visa ending in 4242 for invoice INV-API-OK\. Reference: DP-[0-9A-Z]{4}-[0-9A-Z]{2}\.$/,
      ),
    });
    const [row] = await rows(
      conn.db,
      `select i.client_ip, p.amount_cents from invoice_payments i join payments p on p.id = i.payment_id where i.invoice_number = 'INV-API-OK'`,
    );
    expect(row).toEqual({ client_ip: "203.0.113.250", amount_cents: 25050 });
  });

  it("a posted total is ignored: the amount is the server's reading of invoice_payment_amount", async () => {
    const fields = invoiceFields({ invoice_payment_amount: "1234.56", invoice_number: "INV-TOTAL" });
    const outcome = await run(htmlPost({ ...fields, total: "1.00", amount: "1", amountCents: "100" }));
    expect(outcome.ok).toBe(true);
    const [row] = await rows(
      conn.db,
      `select p.amount_cents from payments p join invoice_payments i on i.payment_id = p.id where i.email = '${fields.email}'`,
    );
    expect(row).toEqual({ amount_cents: 123456 });
  });

  it("the amount as people type it: '1,000' is charged $1,000.00, '$1,250.50' and ' 250 ' as dollars too", async () => {
    for (const [typed, cents] of [
      ["1,000", 100_000],
      ["$1,250.50", 125_050],
      [" 250 ", 25_000],
    ] as const) {
      const fields = invoiceFields({ invoice_payment_amount: typed, invoice_number: `INV-TYPED-${cents}` });
      const outcome = await run(htmlPost(fields));
      expect(outcome.ok, typed).toBe(true);
      const [row] = await rows(
        conn.db,
        `select i.amount_cents as invoice, p.amount_cents as charged from invoice_payments i join payments p on p.id = i.payment_id where i.email = '${fields.email}'`,
      );
      expect(row, typed).toEqual({ invoice: cents, charged: cents });
    }
  });

  it("declined: the gateway's message and what to do (402), nothing stored but the declined attempt, every field kept but card number and CVC", async () => {
    const before = await state();
    const fields = invoiceFields({ cardNumber: DECLINED });
    const outcome = await run(htmlPost(fields));
    expect(outcome).toMatchObject({ ok: false, status: 402, message: PAYMENT_DECLINED_MESSAGE });
    expect(PAYMENT_DECLINED_MESSAGE).toBe("Your card was declined. Try another card, or call your bank.");
    expect(await state()).toEqual({ ...before, payments: before.payments + 1 });
    const [attempt] = await rows(conn.db, `select kind, state, last4 from payments order by id desc limit 1`);
    expect(attempt).toEqual({ kind: "charge", state: "declined", last4: "0002" });
    const kept = outcome.reply?.initialValue as Record<string, unknown>;
    expect(kept).toMatchObject({
      name: "Ada Lovelace",
      email: fields.email,
      invoice_number: "INV-1001",
      invoice_payment_amount: "250.5",
      cardHolder: "Ada Lovelace",
      cardExpMonth: "04",
      cardExpYear: "30",
    });
    expect(kept).not.toHaveProperty("cardNumber");
    expect(kept).not.toHaveProperty("cardCVC");
    // The CVC as a value of its own (not inside a random hex tag or key, which may hold these digits).
    expect(JSON.stringify(outcome.reply)).not.toMatch(/(^|[^0-9a-f])847([^0-9a-f]|$)/);
  });

  it("unknown outcome: stored as pending (its row references the pending payment), said so, no automatic retry", async () => {
    const fields = invoiceFields({ cardNumber: UNKNOWN, invoice_number: "INV-PENDING" });
    const key = crypto.randomUUID();
    const outcome = await run(htmlPost(fields, key));
    expect(outcome).toMatchObject({ ok: true, message: INVOICE_PENDING });
    const [row] = await rows<{ status: string; payment_state: string; payment_id: number }>(
      conn.db,
      `select i.status, p.state as payment_state, i.payment_id from invoice_payments i join payments p on p.id = i.payment_id where i.email = '${fields.email}'`,
    );
    // The processor's answer was lost: the charge is unknown on the ledger (the reconciler asks), never paid.
    expect(row).toMatchObject({ status: "pending", payment_state: "unknown" });
    expect(await findInvoiceReceipt(conn.db, row!.payment_id)).toMatchObject({ status: "pending" });
    const [mail] = await rows<{ subject: string }>(
      conn.db,
      `select subject from outbox where "to" = '${fields.email}'`,
    );
    expect(mail!.subject).toContain("is being confirmed");
    // Sent again (a refresh of the POST): the stored answer, no second attempt.
    const paymentsBefore = await count(conn.db, "payments");
    const again = await run(htmlPost(fields, key));
    expect(again.ok).toBe(true);
    expect(await count(conn.db, "payments")).toBe(paymentsBefore);
  });

  it("double submit: the same render posted twice, one after the other and at once, is one charge and one row", async () => {
    const fields = invoiceFields({ invoice_number: "INV-TWICE" });
    const key = crypto.randomUUID();
    const first = htmlPost(fields, key);
    const replay = first.clone(); // the very same body (a refresh of the POST): its captcha is spent now
    const a = await run(first);
    const b = await run(replay);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(b.redirectTo).toBe(a.redirectTo);
    const c = await run(htmlPost(fields, key)); // a fresh captcha, the same render
    expect(c.redirectTo).toBe(a.redirectTo);

    const fields2 = invoiceFields({ invoice_number: "INV-CLICK" });
    const key2 = crypto.randomUUID();
    const [d, e] = await Promise.all([run(htmlPost(fields2, key2)), run(htmlPost(fields2, key2))]);
    expect([d.ok, e.ok]).toEqual([true, true]);

    for (const f of [fields, fields2]) {
      const [row] = await rows<{ invoices: number; charges: number }>(
        conn.db,
        `select (select count(*)::int from invoice_payments where email = '${f.email}') as invoices,
                (select count(*)::int from payments p join invoice_payments i on i.payment_id = p.id where i.email = '${f.email}') as charges`,
      );
      expect(row).toEqual({ invoices: 1, charges: 1 });
    }
    const [charges] = await rows<{ n: number }>(
      conn.db,
      `select count(*)::int as n from payments where idempotency_key in ('invoice:${key}', 'invoice:${key2}')`,
    );
    expect(charges!.n).toBe(2);
  });

  it("a store that fails after the approval voids the charge (a void on the ledger) and answers the failure", async () => {
    const failing: FormDefinition<typeof invoiceForm.schema> = {
      ...invoiceForm,
      async handle() {
        throw new FormFailure("Something went wrong on our side.", {}, 409);
      },
    };
    const key = crypto.randomUUID();
    const before = await state();
    const outcome = await run(htmlPost(invoiceFields(), key), failing as FormDefinition);
    expect(outcome).toMatchObject({ ok: false, status: 409 });
    const [charge] = await rows<{ id: number; kind: string; state: string }>(
      conn.db,
      `select id, kind, state from payments where idempotency_key = 'invoice:${key}'`,
    );
    expect(charge).toMatchObject({ kind: "charge", state: "succeeded" });
    const giveBacks = await rows(
      conn.db,
      `select kind, state, amount_cents, intent from payments where parent_id = ${charge!.id}`,
    );
    expect(giveBacks).toEqual([{ kind: "void", state: "succeeded", amount_cents: 25050, intent: "undo" }]);
    // Nothing stored but the charge, its void and the company's notice of the voided charge (issue 28).
    expect(await state()).toEqual({ ...before, payments: before.payments + 2, mail: before.mail + 1 });
    const [notice] = await rows<{ subject: string; to: string }>(
      conn.db,
      `select subject, "to" from outbox where source_table = 'payments' order by id desc limit 1`,
    );
    expect(notice?.subject).toBe(`Payment #${charge!.id} voided ($250.50): its invoice payment was never stored`);
    // The render's key is spent on a voided charge: sent again, it is told so and nothing is charged.
    const again = await run(htmlPost(invoiceFields(), key));
    expect(again).toMatchObject({ ok: false, status: 402, message: PAYMENT_CANCELLED_MESSAGE });
    expect(await count(conn.db, "payments")).toBe(before.payments + 2);
  });

  it.each([
    ["malformed card number", { cardNumber: "4242 4242 4242 4241" }, "cardNumber", CARD_MESSAGES.number],
    ["expired card", { cardExpMonth: "01", cardExpYear: "20" }, "cardExpMonth", CARD_MESSAGES.expired],
    ["CVC with letters", { cardCVC: "8a7" }, "cardCVC", CARD_MESSAGES.cvc],
    ["amount 0", { invoice_payment_amount: "0" }, "invoice_payment_amount", AMOUNT_MESSAGES.range],
    ["amount 100,000.01", { invoice_payment_amount: "100000.01" }, "invoice_payment_amount", AMOUNT_MESSAGES.range],
    ["amount 12.345", { invoice_payment_amount: "12.345" }, "invoice_payment_amount", AMOUNT_MESSAGES.decimals],
    ["amount 1,00", { invoice_payment_amount: "1,00" }, "invoice_payment_amount", AMOUNT_MESSAGES.commas],
    ["amount abc", { invoice_payment_amount: "abc" }, "invoice_payment_amount", AMOUNT_MESSAGES.format],
    ["negative amount", { invoice_payment_amount: "-5" }, "invoice_payment_amount", AMOUNT_MESSAGES.format],
  ])("%s: a field error, nothing charged or stored", async (_name, over, field, message) => {
    const before = await state();
    const outcome = await run(htmlPost(invoiceFields(over)));
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(outcome.fieldErrors[field]).toContain(message);
    expect(await state()).toEqual(before);
  });

  it("every paid invoice gets its receipt: receipts are not capped like confirmations (a fourth in a day still goes)", async () => {
    const email = `receipts-${crypto.randomUUID().slice(0, 8)}@example.com`;
    for (let i = 1; i <= 4; i++) {
      const outcome = await run(htmlPost(invoiceFields({ email, invoice_number: `INV-R${i}` })));
      expect(outcome.ok).toBe(true);
    }
    const mail = await rows<{ kind: string }>(conn.db, `select kind from outbox where lower("to") = '${email}'`);
    expect(mail.map((m) => m.kind)).toEqual(["receipt", "receipt", "receipt", "receipt"]);
  });

  it("$100,000 exactly is taken", async () => {
    const outcome = await run(htmlPost(invoiceFields({ invoice_payment_amount: "100000", invoice_number: "INV-MAX" })));
    expect(outcome.ok).toBe(true);
  });

  it("no card number or CVC anywhere: not in any table, not in any log call", async () => {
    const tables = await rows<{ table_name: string }>(
      conn.db,
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const dump: string[] = [];
    for (const { table_name } of tables)
      dump.push(JSON.stringify(await rows(conn.db, `select * from "${table_name}"`)));
    const text = dump.join("\n");
    expect(text).toContain("INV-1001"); // the dump is of the rows this file wrote
    for (const secret of ["4242424242424242", "4000000000000002", "4000000000000119", "4242 4242 4242 4242"])
      expect(text).not.toContain(secret);
    expect(secretsIn(text)).toEqual([]);
    expect(secretsIn(logs.lines.join("\n"))).toEqual([]);
    expect(logs.lines.length).toBeGreaterThan(0);
  });
});

describe("a declined card keeps the render's captcha passed (docs/decisions/059-one-card-entry.md)", () => {
  it("the decline's answer carries a pass; the next post of that render, with another card and no captcha, is paid", async () => {
    const key = crypto.randomUUID();
    const declined = await run(htmlPost(invoiceFields({ cardNumber: DECLINED, invoice_number: "INV-PASS" }), key));
    expect(declined).toMatchObject({ ok: false, status: 402, message: PAYMENT_DECLINED_MESSAGE });
    const pass = passOf(declined);
    expect(pass).toBeTruthy();

    const fields = invoiceFields({ invoice_number: "INV-PASS" });
    const paid = await run(htmlPost(fields, key, { captcha_pass: pass! }));
    expect(paid).toMatchObject({ ok: true, status: 200 });
    const [row] = await rows(
      conn.db,
      `select p.state, p.amount_cents from invoice_payments i join payments p on p.id = i.payment_id where i.email = '${fields.email}'`,
    );
    expect(row).toEqual({ state: "succeeded", amount_cents: 25050 });
    const attempts = await rows<{ state: string }>(
      conn.db,
      `select state from payments where idempotency_key = 'invoice:${key}' order by id`,
    );
    expect(attempts.map((a) => a.state)).toEqual(["declined", "succeeded"]);
  });

  it("a pass is good once, for its own render only, and never for an API client", async () => {
    const key = crypto.randomUUID();
    const declined = await run(htmlPost(invoiceFields({ cardNumber: DECLINED }), key));
    const pass = passOf(declined)!;

    // Another render (another key) with this pass: the captcha is missing, nothing charged.
    const before = await count(conn.db, "payments");
    const other = await run(htmlPost(invoiceFields(), crypto.randomUUID(), { captcha_pass: pass }));
    expect(other).toMatchObject({ ok: false, status: 400, message: SPAM_CHECK_MESSAGE });
    expect(await count(conn.db, "payments")).toBe(before);

    // Its own render, declined again: a new pass; the first one is spent.
    const again = await run(htmlPost(invoiceFields({ cardNumber: DECLINED }), key, { captcha_pass: pass }));
    expect(again).toMatchObject({ ok: false, status: 402 });
    const next = passOf(again);
    expect(next).toBeTruthy();
    expect(next).not.toBe(pass);
    const replay = await run(htmlPost(invoiceFields(), key, { captcha_pass: pass }));
    expect(replay).toMatchObject({ ok: false, status: 400, message: SPAM_CHECK_MESSAGE });

    // The API answers a decline with { success, message } only: its client solves the captcha again.
    const api = await apiFormAction(
      invoiceForm,
      {
        request: formPost(
          "/api/store/pay-invoice/submit",
          { ...invoiceFields({ cardNumber: DECLINED }), recaptcha_token: await altchaToken() },
          { Origin: "", "Sec-Fetch-Site": "" },
        ),
      },
      { db: conn.db, clientIp: nextIp() },
    );
    expect(api.status).toBe(402);
    expect(JSON.stringify(await api.json())).not.toContain("captcha_pass");
  });

  it(`${CAPTCHA_PASS_RETRIES} more cards per captcha solved, then the captcha again`, async () => {
    const key = crypto.randomUUID();
    let outcome = await run(htmlPost(invoiceFields({ cardNumber: DECLINED }), key));
    for (let retry = 1; retry <= CAPTCHA_PASS_RETRIES; retry++) {
      const pass = passOf(outcome);
      expect(pass, `pass ${retry}`).toBeTruthy();
      outcome = await run(htmlPost(invoiceFields({ cardNumber: DECLINED }), key, { captcha_pass: pass! }));
      expect(outcome).toMatchObject({ ok: false, status: 402 });
    }
    expect(passOf(outcome)).toBeUndefined();
    // A new captcha solved: the render goes on (a new count of passes).
    const solved = await run(htmlPost(invoiceFields({ cardNumber: DECLINED }), key));
    expect(solved).toMatchObject({ ok: false, status: 402 });
    expect(passOf(solved)).toBeTruthy();
  });

  it("a refusal that is not the card's (a wrong field) spends no captcha and issues no pass", async () => {
    const key = crypto.randomUUID();
    const captcha = sumAnswer();
    const refused = await run(htmlPost(invoiceFields({ invoice_payment_amount: "abc" }), key, captcha));
    expect(refused).toMatchObject({ ok: false, status: 400 });
    expect(passOf(refused)).toBeUndefined();
    // The same sum answer still passes: it was not spent on the refused post.
    const paid = await run(htmlPost(invoiceFields(), key, captcha));
    expect(paid.ok).toBe(true);
  });
});
