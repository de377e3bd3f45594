import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { categories, products } from "@db/schema";
import { formAction } from "~/forms/actions.server";
import { verifyCaptcha } from "~/forms/captcha/verifier.server";
import { isHoneypotTripped } from "~/forms/honeypot.server";
import { invoiceForm } from "~/forms/invoice/handle.server";
import { PAYMENT_CANCELLED_MESSAGE, PAYMENT_DECLINED_MESSAGE, runForm, type FormDefinition } from "~/forms/pipeline";
import { chargeOnce } from "~/payments/payments.server";
import { reconcile } from "~/payments/reconcile.server";
import { addToCart, cartCookieHeader } from "~/shop/cart.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { CHECKOUT_SUCCESS } from "~/shop/checkout/identity";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { checkoutFields, invoiceFields } from "./payments-support";

/**
 * What comes after a charge (issue 28, issue 36): a twin of a paid post answers as the first one
 * does, however long the first takes; an approved charge whose record was never stored is found by
 * the reconciler and undone (a void on the ledger, staff mailed), or completed by the re-send of its
 * render; a refused post's re-render is sent again without the minimum fill time dropping it.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const DECLINED = "4000 0000 0000 0002";

const orphanInvoice = (over: Record<string, string> = {}) =>
  invoiceFields({ invoice_number: "INV-2001", invoice_payment_amount: "77.77", ...over });

const run = (request: Request, def: FormDefinition = invoiceForm) =>
  runForm(def, request, { db: conn.db, clientIp: nextIp() });
const invoicePost = (fields: Record<string, string>, key: string, captcha = sumAnswer()) =>
  formPost("/pay-invoice", toFormData({ ...fields, ...honeypotFields(), ...captcha, submission_key: key }));

/** A charge approved for a render whose process died before it stored anything (kill -9 between approval and store). */
async function orphanCharge(key: string) {
  const payment = await chargeOnce(conn.db, {
    purpose: "invoice",
    amountCents: 7777,
    card: { number: "4242424242424242", expMonth: 4, expYear: 2030, cvc: "847", holder: "Ada Lovelace" },
    description: "Invoice INV-2001",
    idempotencyKey: `invoice:${key}`,
    // As the dead post priced it (the invoice form's priced fields): its re-send must match them.
    priced: invoiceForm.payment!.priced(orphanInvoice() as never, undefined),
  });
  expect(payment.status).toBe("approved");
  return payment;
}

/** A charge's ledger row: its state, what it serves, whether that is committed. */
const paymentRow = async (id: number) =>
  (
    await rows<{ kind: string; state: string; reference_table: string | null; resolved: boolean }>(
      conn.db,
      `select kind, state, reference_table, resolved_at is not null as resolved from payments where id = ${id}`,
    )
  )[0]!;
/** The voids and refunds that acted on a charge, oldest first. */
const givenBack = (chargeId: number) =>
  rows<{ kind: string; state: string; amount_cents: number; intent: string; reference_table: string | null }>(
    conn.db,
    `select kind, state, amount_cents, intent, reference_table from payments where parent_id = ${chargeId} order by id`,
  );
/** One round of the reconciler, with the server's hooks (its mails to the company). */
const reconcileRound = (graceMs: number) => reconcile(conn.db, { hooks: ledgerHooks, graceMs });

describe("an approved charge without its record", () => {
  it("is voided by the reconciliation once its grace has passed, and the company is mailed; a linked charge is left alone", async () => {
    const orphan = await orphanCharge(crypto.randomUUID());
    const linkedFields = orphanInvoice();
    const linked = await run(invoicePost(linkedFields, crypto.randomUUID()));
    expect(linked.ok).toBe(true);
    const [invoice] = await rows<{ payment_id: number }>(
      conn.db,
      `select payment_id from invoice_payments where email = '${linkedFields.email}'`,
    );
    // Within the grace nothing is touched: a store may still be on its way.
    expect(await reconcileRound(60_000)).toEqual([]);
    expect(await givenBack(orphan.paymentId)).toEqual([]);
    await conn.db.execute(sql`update payments set updated_at = now() - interval '2 minutes'`);
    const events = await reconcileRound(60_000);
    expect(events.map((e) => [e.kind, e.row.id, e.outcome])).toEqual([["undone", orphan.paymentId, "voided"]]);
    // The charge stays what it was (money was taken), resolved by a void the processor confirmed.
    expect(await paymentRow(orphan.paymentId)).toEqual({
      kind: "charge",
      state: "succeeded",
      reference_table: null,
      resolved: true,
    });
    expect(await givenBack(orphan.paymentId)).toEqual([
      { kind: "void", state: "succeeded", amount_cents: 77_77, intent: "undo", reference_table: null },
    ]);
    const [mail] = await rows<{ subject: string; text: string }>(
      conn.db,
      `select subject, text from outbox where source_table = 'payments' and source_id = ${orphan.paymentId}`,
    );
    expect(mail?.subject).toBe(`Payment #${orphan.paymentId} voided ($77.77): its invoice payment was never stored`);
    expect(mail?.text).toContain("Visa ending in 4242");
    expect(mail?.text).toContain("the $77.77 charge was cancelled before it was taken (no money left the card)");
    // The linked charge: untouched.
    expect(await paymentRow(invoice!.payment_id)).toMatchObject({
      state: "succeeded",
      reference_table: "invoice_payments",
    });
    expect(await givenBack(invoice!.payment_id)).toEqual([]);
    // Run again: nothing more to do, nothing more mailed.
    expect(await reconcileRound(0)).toEqual([]);
    expect(await rows(conn.db, `select id from outbox where source_table = 'payments'`)).toHaveLength(1);
  });

  it.each([
    ["a fresh captcha", false],
    ["the captcha the dead post spent", true],
  ])(
    "the re-send of its render with %s completes the record with that charge, charging nothing more",
    async (_, spent) => {
      const key = crypto.randomUUID();
      const captcha = sumAnswer();
      const orphan = await orphanCharge(key);
      if (spent) expect(await verifyCaptcha(conn.db, toFormData(captcha), null)).toBe("sum");
      const fields = orphanInvoice();
      const before = await count(conn.db, "payments");
      const outcome = await run(invoicePost(fields, key, captcha));
      expect(outcome).toMatchObject({ ok: true, status: 200 });
      expect(await count(conn.db, "payments")).toBe(before);
      expect(await paymentRow(orphan.paymentId)).toEqual({
        kind: "charge",
        state: "succeeded",
        reference_table: "invoice_payments",
        resolved: true,
      });
      expect(await givenBack(orphan.paymentId)).toEqual([]);
      const [invoice] = await rows<{ payment_id: number }>(
        conn.db,
        `select payment_id from invoice_payments where email = '${fields.email}'`,
      );
      expect(invoice?.payment_id).toBe(orphan.paymentId);
    },
  );

  it("once undone, the re-send of its render answers at once that nothing was charged", async () => {
    const key = crypto.randomUUID();
    const orphan = await orphanCharge(key);
    await conn.db.execute(
      sql`update payments set updated_at = now() - interval '2 minutes' where id = ${orphan.paymentId}`,
    );
    expect((await reconcileRound(60_000)).map((e) => [e.kind, e.row.id])).toContainEqual(["undone", orphan.paymentId]);
    const started = Date.now();
    const outcome = await run(invoicePost(orphanInvoice(), key));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({ ok: false, status: 402, message: PAYMENT_CANCELLED_MESSAGE });
  });
});

describe("a twin of a paid post", () => {
  let category: number;
  beforeAll(async () => {
    const [cat] = await conn.db.insert(categories).values({ name: "Twin test" }).returning();
    category = cat!.id;
  });

  it("posted while the first is held 2 s by a row lock answers as the first: one order, one charge, both its success", async () => {
    const [item] = await conn.db
      .insert(products)
      .values({ name: "Locked door", priceCents: 18900, image: "/x.svg", categoryId: category, stock: 3 })
      .returning();
    const added = await addToCart(conn.db, null, { inventory_id: item!.id, selectedOptions: {} }, nextIp());
    if (!added.ok) throw new Error(added.message);
    const cookie = (await cartCookieHeader(added.cartId)).split(";")[0]!;
    const body = toFormData({
      ...checkoutFields(),
      ...honeypotFields(),
      ...sumAnswer(),
      submission_key: crypto.randomUUID(),
    });
    const post = () => run(formPost("/checkout", body, { Cookie: cookie }), checkoutForm as FormDefinition);
    const before = await count(conn.db, "payments");
    // A concurrent checkout holds the product's row for 2 s.
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = conn.db.transaction(async (tx) => {
      await tx.execute(sql`select id from products where id = ${item!.id} for update`);
      locked();
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // the scenario: a lock held 2 s
    });
    await lockTaken;
    const first = post();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the scenario: the second click 300 ms later
    const twin = post();
    const outcomes = await Promise.all([first, twin, lock]);
    expect(outcomes.slice(0, 2).map((o) => o && [o.ok, o.message.startsWith(CHECKOUT_SUCCESS)])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(await count(conn.db, "payments")).toBe(before + 1);
  });

  it("of a declined post answers with the first one's decline, charging nothing more", async () => {
    const body = toFormData({
      ...orphanInvoice({ cardNumber: DECLINED }),
      ...honeypotFields(),
      ...sumAnswer(),
      submission_key: crypto.randomUUID(),
    });
    const before = await count(conn.db, "payments");
    const outcomes = await Promise.all([run(formPost("/pay-invoice", body)), run(formPost("/pay-invoice", body))]);
    expect(outcomes.map((o) => [o.ok, o.status, o.message])).toEqual([
      [false, 402, PAYMENT_DECLINED_MESSAGE],
      [false, 402, PAYMENT_DECLINED_MESSAGE],
    ]);
    expect(await count(conn.db, "payments")).toBe(before + 1);
  });
});

describe("a refused post sent again at once", () => {
  it("is a person's: its re-render's honeypot skips the minimum fill time for that render only", async () => {
    const key = crypto.randomUUID();
    const fields = { ...orphanInvoice(), ...honeypotFields(), captcha_answer: "99", submission_key: key };
    const refused = await formAction(invoiceForm, { request: formPost("/pay-invoice", toFormData(fields)) });
    const data = (refused as unknown as { data: { honeypot?: Record<string, string>; message: string } }).data;
    expect(data.message).toBe("Please complete the spam check.");
    const trap = data.honeypot!;
    const resend = toFormData({ name__confirm: "", from__confirm: trap.encryptedValidFrom, submission_key: key });
    // Sent back 1 s after the refusal: kept. The same fields on another render's key: a bot's speed.
    const opts = { required: true, minFillMs: 2_000, now: Date.now() + 1_000 };
    expect(isHoneypotTripped(resend, { ...opts, submissionKey: key })).toBe(false);
    expect(isHoneypotTripped(resend, { ...opts, submissionKey: crypto.randomUUID() })).toBe(true);
  });
});
