import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { PAYMENT_DECLINED_MESSAGE, runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays, AVAILABILITY_MESSAGES } from "~/booking/availability";
import { holdPlace, loadAvailability } from "~/booking/availability.server";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { RESIDENTIAL_PENDING } from "~/booking/form/identity";
import { findBookingByToken } from "~/booking/manage.server";
import { changePolicy, WHAT_HAPPENS_NEXT } from "~/booking/policy";
import { BOOKING_REFERENCE_PATTERN, manageTokenHash, newManageToken } from "~/booking/reference.server";
import { findServiceReceipt, serviceReceiptPath, verifiedServicePaymentId } from "~/booking/form/receipt.server";
import { todayInDetroit } from "~/lib/company-time";
import { CARD_MESSAGES } from "~/payments/card";
import { weekdayOf } from "~/booking/service-price";
import { createTestDatabase } from "../support/db";
import { altchaToken, count, formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { captureLogs, residentialFields, secretsIn } from "./payments-support";

/**
 * Residential service on the real database with the sandbox gateway: the
 * price is the server's (a posted total is ignored), a place is held under
 * the slot's lock before the card is charged, the booking, its payment link
 * and its e-mails are one transaction, a declined card stores no booking and
 * gives the place back, and the last place of a slot goes to one visitor only.
 * Each test books its own future days (SERVICE_SLOT_CAPACITY is 3).
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

const VISA = "4242 4242 4242 4242";
const DECLINED = "4000 0000 0000 0002";
const UNKNOWN = "4000 0000 0000 0119";
const MORNING = "Morning (8 AM to 11 AM)";
const EVENING = "Evening (After 4 PM)";

/** The n-th coming day with this weekday (0 = Sunday), at least a week out, never a holiday. */
function coming(weekday: number, n = 1): string {
  let date = addDays(todayInDetroit(), 7);
  let seen = 0;
  for (;;) {
    const md = date.slice(5);
    if (weekdayOf(date) === weekday && md !== "01-01" && md !== "07-04" && md !== "12-25" && ++seen === n) return date;
    date = addDays(date, 1);
  }
}

const bookingFields = (over: Record<string, string> = {}) =>
  residentialFields(coming(6), { description: "Spring snapped.", ...over });

const PATH = "/request-service?type=residential";

/** The booking's manage page, where the booking form sends the visitor after paying. */
const MANAGE_PATH = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/;

function htmlPost(fields: Record<string, string>, key: string | null = crypto.randomUUID()) {
  return formPost(
    PATH,
    toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), ...(key ? { submission_key: key } : {}) }),
  );
}
const run = (request: Request, def: FormDefinition = residentialServiceForm as FormDefinition) =>
  runForm(def, request, { db: conn.db, clientIp: nextIp() });

async function state() {
  return {
    payments: await count(conn.db, "payments"),
    bookings: await count(conn.db, "service_requests"),
    holds: await count(conn.db, "service_slot_holds"),
    mail: await count(conn.db, "outbox"),
  };
}

type Booking = {
  id: number;
  kind: string;
  total_cents: number;
  payment_status: string;
  payment_id: number;
  card_brand: string;
  card_last4: string;
  reference: string;
  manage_token_hash: string;
  booking_status: string;
};
const bookingOf = async (email: string) =>
  (await rows<Booking>(conn.db, `select * from service_requests where email = '${email}'`))[0];

describe("residential service booking", () => {
  it("approved on a Saturday: $159.00 charged once, booking + payment + both e-mails (the visitor's with the visit's invitation), a reference, redirected to the booking's page", async () => {
    const before = await state();
    const fields = bookingFields();
    const outcome = await run(htmlPost(fields));
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.message).toMatch(
      /^Submitted successfully! \$159\.00 charged to Visa ending in 4242 for your service visit on Saturday, /,
    );

    const booking = (await bookingOf(fields.email))!;
    expect(booking).toMatchObject({
      kind: "residential",
      total_cents: 15900,
      payment_status: "paid",
      card_brand: "Visa",
      card_last4: "4242",
    });
    const [payment] = await rows(conn.db, `select * from payments where id = ${booking.payment_id}`);
    expect(payment).toMatchObject({
      kind: "charge",
      state: "succeeded",
      amount_cents: 15900,
      purpose: "service",
      intent: "book",
      reference_table: "service_requests",
      reference_id: booking.id,
    });
    // The booking stands on the charge: resolved in the booking's own transaction.
    expect(payment!.resolved_at).not.toBeNull();
    // To the booking's own page (DECISIONS 32): its token's hash is stored, never the token.
    expect(outcome.redirectTo).toMatch(MANAGE_PATH);
    const token = MANAGE_PATH.exec(outcome.redirectTo!)![1]!;
    expect(booking).toMatchObject({ manage_token_hash: manageTokenHash(token), booking_status: "booked" });
    expect(booking.reference).toMatch(BOOKING_REFERENCE_PATTERN);
    expect(JSON.stringify(booking)).not.toContain(token);
    expect(await state()).toEqual({
      payments: before.payments + 1,
      bookings: before.bookings + 1,
      holds: before.holds,
      mail: before.mail + 2,
    });

    const mail = await rows<{ to: string; kind: string; text: string; attachments: unknown }>(
      conn.db,
      `select "to", kind, text, attachments from outbox where source_table = 'service_requests' and source_id = ${booking.id} order by id`,
    );
    expect(mail.map((m) => m.kind)).toEqual(["company", "receipt"]);
    expect(mail[1]!.to).toBe(fields.email);
    // The visitor's receipt leads with the reference, the visit, the address and what was paid, then
    // what happens next, the policy and the booking's link; what they typed follows, never the card
    // beyond its last four, nor the payment's internal id.
    const visitor = mail[1]!.text;
    const [lead, details] = visitor.split("\nYour details\n");
    expect(lead).toContain(`Booking reference: ${booking.reference}\n`);
    expect(lead).toMatch(/\nDay: Saturday, [A-Z][a-z]+ \d{1,2}, \d{4}\n/);
    expect(lead).toContain(`\nArrival window: ${MORNING}\n`);
    expect(lead).toContain("\nAddress: 12 Elm St, Flint, MI 48503\n");
    expect(lead).toContain("\nPaid: $159.00 charged to Visa ending in 4242\n");
    expect(lead).toContain(`What happens next\n-----------------\n\n${WHAT_HAPPENS_NEXT}`);
    expect(lead).toContain(changePolicy(24));
    expect(lead).toContain(`See, change or cancel your booking:\nhttp://localhost:3000/booking/${token}\n`);
    expect(details).toContain(`Name:\n  ${fields.name}`);
    expect(details).not.toMatch(/Cardholder|Card Number|CVC|Expiry/);
    expect(visitor).not.toMatch(/payment #|if anything needs correcting/);
    expect(visitor).toContain("Questions? Call us at (810) 555-0100");
    // The company's copy: the reference, the state and until when it can be changed online, then
    // everything sent with the charge's id for the processor's dashboard; never the link.
    const staff = mail[0]!.text;
    expect(staff).toContain(`Booking reference: ${booking.reference}\n`);
    expect(staff).toContain("\nState: Booked\n");
    expect(staff).toMatch(
      /\nOnline changes: Yes, from the link in their receipt, until [A-Z][a-z]+day, .+ \(Detroit time\)/,
    );
    expect(staff).toContain(`Approved (payment #${booking.payment_id})`);
    expect(staff).toContain("Cardholder Name:");
    expect(staff).not.toContain(token);
    // The visitor's receipt carries the visit's invitation, in UTC from the Detroit slot (8 AM); the company's copy none.
    expect(mail[0]!.attachments).toBeNull();
    const [ics] = mail[1]!.attachments as { filename: string; contentType: string; content: string }[];
    expect(ics!.filename).toBe("service-visit.ics");
    expect(ics!.content).toContain("BEGIN:VEVENT");
    const offset = Number(
      /GMT([+-]\d+)/.exec(
        new Intl.DateTimeFormat("en-US", { timeZone: "America/Detroit", timeZoneName: "shortOffset" }).format(
          new Date(`${fields.serviceDate}T12:00:00Z`),
        ),
      )![1],
    );
    expect(ics!.content).toContain(
      `DTSTART:${fields.serviceDate.replaceAll("-", "")}T${String(8 - offset).padStart(2, "0")}0000Z`,
    );
    expect(ics!.content).toContain("LOCATION:12 Elm St\\, Flint\\, MI 48503");

    // The booking's page reads it by its token; the signed receipt (a resubmission's) by its payment.
    const managed = await findBookingByToken(conn.db, token);
    expect(managed).toMatchObject({ reference: booking.reference, status: "booked", amount: "$159.00", paid: true });
    expect(managed?.history.map((h) => h.kind)).toEqual(["booked"]);
    expect(await findBookingByToken(conn.db, newManageToken().token)).toBeNull();
    const receiptPath = serviceReceiptPath(booking.payment_id);
    const url = new URL(`http://localhost${receiptPath}`);
    const id = verifiedServicePaymentId(url.pathname.split("/").pop(), url.searchParams.get("sig"))!;
    expect(await findServiceReceipt(conn.db, id)).toMatchObject({
      pending: false,
      amount: "$159.00",
      brand: "Visa",
      last4: "4242",
      serviceDate: fields.serviceDate,
    });
    expect(verifiedServicePaymentId(String(id + 1), url.searchParams.get("sig"))).toBeNull();
  });

  it("a posted total of 1 for a Sunday is ignored: charged 199.00", async () => {
    const fields = bookingFields({ serviceDate: coming(0), total: "1.00" });
    const outcome = await run(htmlPost(fields));
    expect(outcome.ok).toBe(true);
    const booking = (await bookingOf(fields.email))!;
    const [payment] = await rows(conn.db, `select amount_cents from payments where id = ${booking.payment_id}`);
    expect(payment).toEqual({ amount_cents: 19900 });
    expect(booking.total_cents).toBe(19900);
  });

  it("an evening on a weekday is 159.95, a morning 129.95", async () => {
    for (const [time, cents] of [
      [EVENING, 15995],
      [MORNING, 12995],
    ] as const) {
      const fields = bookingFields({ serviceDate: coming(3), serviceTime: time });
      expect((await run(htmlPost(fields))).ok).toBe(true);
      expect((await bookingOf(fields.email))!.total_cents).toBe(cents);
    }
  });

  it("declined: the gateway's message, no booking, the place given back, every field kept but card number and CVC", async () => {
    const date = coming(6, 2);
    const before = await state();
    const fields = bookingFields({ serviceDate: date, cardNumber: DECLINED });
    const outcome = await run(htmlPost(fields));
    expect(outcome).toMatchObject({ ok: false, status: 402, message: PAYMENT_DECLINED_MESSAGE });
    expect(await state()).toEqual({ ...before, payments: before.payments + 1 });
    const kept = outcome.reply?.initialValue as Record<string, unknown>;
    expect(kept).toMatchObject({
      name: "Grace Hopper",
      serviceDate: date,
      serviceTime: MORNING,
      cardHolder: "Grace Hopper",
      cardExpMonth: "04",
    });
    expect(kept).not.toHaveProperty("cardNumber");
    expect(kept).not.toHaveProperty("cardCVC");
    expect((await loadAvailability(conn.db)).taken[date]).toBeUndefined();
  });

  it("processor answer unknown: booked as pending, said so, the place kept, a resubmission charges nothing", async () => {
    const fields = bookingFields({ serviceDate: coming(6, 3), cardNumber: UNKNOWN });
    const key = crypto.randomUUID();
    const outcome = await run(htmlPost(fields, key));
    expect(outcome).toMatchObject({ ok: true, message: RESIDENTIAL_PENDING });
    const booking = (await bookingOf(fields.email))!;
    expect(booking.payment_status).toBe("pending");
    // Its receipt says the payment is being confirmed, not to pay again, and that a change is by phone meanwhile.
    const [receipt] = await rows<{ subject: string; text: string }>(
      conn.db,
      `select subject, text from outbox where kind = 'receipt' and source_table = 'service_requests' and source_id = ${booking.id}`,
    );
    expect(receipt!.subject).toMatch(/: payment being confirmed — /);
    expect(receipt!.text).toContain(
      "Payment: $159.00 on Visa ending in 0119, being confirmed with the card processor\n",
    );
    expect(receipt!.text).toContain("Please do not pay again");
    expect(receipt!.text).toContain(
      "the booking's page shows your visit but cannot change it yet: call us at (810) 555-0100",
    );
    expect(receipt!.text).toContain("See your booking:\nhttp://localhost:3000/booking/");
    expect(receipt!.text).not.toContain("payment #");
    expect(await findServiceReceipt(conn.db, booking.payment_id)).toMatchObject({ pending: true });
    expect((await loadAvailability(conn.db)).taken[fields.serviceDate]).toEqual({ [MORNING]: 1 });
    const paymentsBefore = await count(conn.db, "payments");
    expect((await run(htmlPost(fields, key))).ok).toBe(true);
    expect(await count(conn.db, "payments")).toBe(paymentsBefore);
  });

  it("double submit (one after the other, and at once): one booking, one charge", async () => {
    const fields = bookingFields({ serviceDate: coming(1, 2) });
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([run(htmlPost(fields, key)), run(htmlPost(fields, key))]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    const c = await run(htmlPost(fields, key));
    expect(c.ok).toBe(true);
    // The post that stored it goes to the booking's page; a resubmission (which never saw the page's
    // token) to the signed receipt of the same payment, which names the booking's reference.
    const receiptOnly = /^\/request-service\/receipt\/\d+\?sig=/;
    expect([a.redirectTo, b.redirectTo].filter((to) => receiptOnly.test(to!))).toHaveLength(1);
    expect([a.redirectTo, b.redirectTo].filter((to) => MANAGE_PATH.test(to!))).toHaveLength(1);
    expect(c.redirectTo).toMatch(receiptOnly);
    const [row] = await rows<{ bookings: number; charges: number }>(
      conn.db,
      `select (select count(*)::int from service_requests where email = '${fields.email}') as bookings,
              (select count(*)::int from payments where idempotency_key = 'service-residential:${key}') as charges`,
    );
    expect(row).toEqual({ bookings: 1, charges: 1 });
    // A twin whose hold came after the first one's commit gives it back: no place stays held for nothing.
    const [held] = await rows<{ n: number }>(
      conn.db,
      `select count(*)::int as n from service_slot_holds where key = 'service-residential:${key}'`,
    );
    expect(held!.n).toBe(0);
  });

  it("the last place of a slot, taken by two concurrent bookings: one booking, one charge, the other told the slot is full", async () => {
    const date = coming(2, 3);
    for (let i = 0; i < 2; i++) expect((await run(htmlPost(bookingFields({ serviceDate: date })))).ok).toBe(true);
    const before = await state();
    const racers = [bookingFields({ serviceDate: date }), bookingFields({ serviceDate: date })];
    const outcomes = await Promise.all(racers.map((f) => run(htmlPost(f))));
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    const loser = outcomes.find((o) => !o.ok)!;
    expect(loser).toMatchObject({ status: 409, message: AVAILABILITY_MESSAGES.full });
    expect(loser.fieldErrors.serviceTime).toEqual([AVAILABILITY_MESSAGES.full]);
    expect(await state()).toMatchObject({
      payments: before.payments + 1,
      bookings: before.bookings + 1,
      holds: before.holds,
    });
    expect((await loadAvailability(conn.db)).taken[date]).toEqual({ [MORNING]: 3 });

    // Full now: refused before any charge, the fields kept.
    const late = await run(htmlPost(bookingFields({ serviceDate: date })));
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect(await count(conn.db, "payments")).toBe(before.payments + 1);
    // Another slot of the same day is free.
    expect((await run(htmlPost(bookingFields({ serviceDate: date, serviceTime: EVENING })))).ok).toBe(true);
  });

  it("a live hold counts as taken; an expired one does not", async () => {
    const date = coming(4, 4);
    for (let i = 0; i < 3; i++) expect(await holdPlace(conn.db, `hold-${i}-${date}`, date, MORNING)).toBeNull();
    expect((await holdPlace(conn.db, `hold-x-${date}`, date, MORNING))?.message).toBe(AVAILABILITY_MESSAGES.full);
    await conn.db.execute(
      `update service_slot_holds set expires_at = now() - interval '1 minute' where service_date = '${date}'` as never,
    );
    expect(await holdPlace(conn.db, `hold-y-${date}`, date, MORNING)).toBeNull();
    await conn.db.execute(`delete from service_slot_holds where service_date = '${date}'` as never);
  });

  it.each([
    ["malformed card number", { cardNumber: "4242 4242 4242 4241" }, "cardNumber", CARD_MESSAGES.number],
    ["expired card", { cardExpMonth: "01", cardExpYear: "20" }, "cardExpMonth", CARD_MESSAGES.expired],
    ["past date", { serviceDate: "2020-01-06" }, "serviceDate", "Please choose today or a later date."],
    ["unknown slot", { serviceTime: "Midnight" }, "serviceTime", "Please choose one of the listed options."],
  ])("%s: a field error, nothing held, charged or stored", async (_name, over, field, message) => {
    const before = await state();
    const outcome = await run(htmlPost(bookingFields(over)));
    expect(outcome).toMatchObject({ ok: false, status: 400 });
    expect(outcome.fieldErrors[field]).toContain(message);
    expect(await state()).toEqual(before);
  });

  it("beyond the booking horizon: refused before any charge", async () => {
    const before = await state();
    const outcome = await run(htmlPost(bookingFields({ serviceDate: addDays(todayInDetroit(), 200) })));
    expect(outcome).toMatchObject({ ok: false, status: 409, message: AVAILABILITY_MESSAGES.horizon });
    expect(await state()).toEqual(before);
  });

  it("'Show price' (no JavaScript): the form comes back with every field but the card's, nothing checked, held or charged", async () => {
    const before = await state();
    const fields = bookingFields({ cardNumber: "", email: "" });
    const outcome = await run(htmlPost({ ...fields, cardNumber: VISA, intent: "show-price" }, crypto.randomUUID()));
    expect(outcome).toMatchObject({ ok: false, status: 200, preview: true, message: "" });
    const kept = outcome.reply?.initialValue as Record<string, unknown>;
    expect(kept).toMatchObject({ serviceDate: fields.serviceDate, serviceTime: MORNING, name: "Grace Hopper" });
    expect(kept).not.toHaveProperty("cardNumber");
    expect(kept).not.toHaveProperty("cardCVC");
    expect(await state()).toEqual(before);
  });

  it("'Show price' before the sum is answered: the same preview, not a captcha refusal (the captcha is checked before files, the preview before both)", async () => {
    const fields = bookingFields({ cardNumber: "", cardCVC: "" });
    const body = toFormData({
      ...fields,
      ...honeypotFields(),
      intent: "show-price",
      submission_key: crypto.randomUUID(),
    });
    const outcome = await run(formPost(PATH, body));
    expect(outcome).toMatchObject({ ok: false, status: 200, preview: true, message: "" });
  });

  it("the HTML action answers 303 to the receipt; the API answers { success, message }, ignores total and client_ip", async () => {
    const thrown = await formAction(
      residentialServiceForm,
      { request: htmlPost(bookingFields({ serviceDate: coming(5, 2) })) },
      { db: conn.db, clientIp: nextIp() },
    ).catch((e) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(303);
    expect((thrown as Response).headers.get("Location")).toMatch(MANAGE_PATH);

    const body = toFormData({
      ...bookingFields({ serviceDate: coming(0, 2) }),
      total: "1.00",
      client_ip: "198.51.100.7",
      recaptcha_token: await altchaToken(),
    });
    const email = body.get("email") as string;
    const response = await apiFormAction(
      residentialServiceForm,
      { request: formPost("/api/store/request-service/residential", body, { Origin: "", "Sec-Fetch-Site": "" }) },
      { db: conn.db, clientIp: "203.0.113.251" },
    );
    expect(response.status).toBe(200);
    const json = (await response.json()) as { success: boolean; message: string };
    expect(json.success).toBe(true);
    expect(json.message).toMatch(/^Submitted successfully! \$199\.00 charged to Visa ending in 4242/);
    const [row] = await rows(conn.db, `select client_ip, total_cents from service_requests where email = '${email}'`);
    expect(row).toEqual({ client_ip: "203.0.113.251", total_cents: 19900 });
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
    expect(text).toContain("Grace Hopper");
    expect(secretsIn(text)).toEqual([]);
    expect(secretsIn(logs.lines.join("\n"))).toEqual([]);
  });
});
