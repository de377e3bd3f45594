import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Connection } from "@db/client.server";
import { changeDeadline, windowStart } from "~/booking/cutoff";
import { cancelBooking } from "~/booking/cancel.server";
import { findBookingByToken } from "~/booking/manage.server";
import { answerMove } from "~/booking/move-form.server";
import { RESCHEDULE_MESSAGES, rescheduleBooking, type RescheduleRequest } from "~/booking/reschedule.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays, AVAILABILITY_MESSAGES } from "~/forms/residential/availability";
import { loadAvailability } from "~/forms/residential/availability.server";
import { residentialServiceForm } from "~/forms/residential/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import type { PaymentGateway } from "~/payments/gateway";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { weekdayOf, type ServiceTime } from "~/payments/service-price";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * Moving a paid booking from its page (issue 29 item 5) on the real database with the sandbox
 * gateway: the same price moves it; a dearer window charges the difference once (a double click
 * included) to a card entered again; a cheaper one refunds the difference to the card that paid;
 * the old place is freed and the new one taken in one transaction, so the last place of a window
 * goes to one of two visitors moving into it at once; every change is in the history with its
 * amounts, and the visitor gets an updated invitation (same UID, SEQUENCE one higher).
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const MORNING: ServiceTime = "Morning (8 AM to 11 AM)";
const AFTERNOON: ServiceTime = "Afternoon (11 AM to 2 PM)";
const CARD = { number: "4242 4242 4242 4242", expMonth: "04", expYear: "30", cvc: "847", holder: "Grace Hopper" };

let weeks = 0;
/** The given weekday (0 = Sunday) of a coming week, a different week for each test. */
function weekday(day: number, week = ++weeks): string {
  let date = addDays(todayInDetroit(), 7 * week);
  while (weekdayOf(date) !== day) date = addDays(date, 1);
  // 1 January, 4 July and 25 December are priced as Sundays: step past them.
  return /-(01-01|07-04|12-25)$/.test(date) ? weekday(day, ++weeks) : date;
}

async function book(serviceDate: string, serviceTime = MORNING) {
  const fields = residentialFields(serviceDate, {
    serviceTime,
    email: `move-${crypto.randomUUID().slice(0, 8)}@example.com`,
  });
  const body = toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() });
  const outcome = await runForm(residentialServiceForm as FormDefinition, formPost("/request-service", body), {
    db: conn.db,
    clientIp: nextIp(),
  });
  expect(outcome.ok).toBe(true);
  const token = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/.exec(outcome.redirectTo!)![1]!;
  const [row] = await rows<{ id: number; payment_id: number; reference: string }>(
    conn.db,
    `select id, payment_id, reference from service_requests where email = '${fields.email}'`,
  );
  return { token, serviceDate, ...row! };
}

const move = (token: string, to: Partial<RescheduleRequest>, gateway?: PaymentGateway) =>
  rescheduleBooking(
    conn.db,
    token,
    { serviceDate: "", serviceTime: MORNING, changeKey: crypto.randomUUID(), ...to },
    gateway ? { gateway } : {},
  );

const taken = async (date: string, time: ServiceTime = MORNING) =>
  (await loadAvailability(conn.db)).taken[date]?.[time] ?? 0;
const bookingPayments = (id: number) =>
  rows<{ id: number; amount_cents: number; refunded_cents: number; status: string }>(
    conn.db,
    `select id, amount_cents, refunded_cents, status from payments where reference_table = 'service_requests' and reference_id = ${id} and status <> 'declined' order by id`,
  );
const events = (id: number) =>
  rows<{ kind: string; amount_cents: number | null; from_date: string | null; to_date: string | null }>(
    conn.db,
    `select kind, amount_cents, from_date::text, to_date::text from booking_events where service_request_id = ${id} order by id`,
  );
const mails = (id: number) =>
  rows<{ to: string; subject: string; text: string; attachments: { content: string }[] | null }>(
    conn.db,
    `select "to", subject, text, attachments from outbox where source_table = 'service_requests' and source_id = ${id} order by id`,
  );

describe("moving a booking from its page", () => {
  it("the same price: the booking moves, the old place is freed, the new one taken, and the invitation updated", async () => {
    const b = await book(weekday(2));
    const to = addDays(b.serviceDate, 1); // the Wednesday
    const outcome = await move(b.token, { serviceDate: to, serviceTime: AFTERNOON });
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.message).toMatch(
      /^Your visit is moved to Wednesday, .+, Afternoon \(11 AM to 2 PM\)\. The new time costs the same \(\$129\.95\): nothing was charged or refunded\.$/,
    );
    expect(await taken(b.serviceDate)).toBe(0);
    expect(await taken(to, AFTERNOON)).toBe(1);
    expect(await bookingPayments(b.id)).toEqual([
      expect.objectContaining({ amount_cents: 129_95, status: "approved", refunded_cents: 0 }),
    ]);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page).toMatchObject({ status: "rescheduled", serviceDate: to, serviceTime: AFTERNOON, amount: "$129.95" });
    expect(await events(b.id)).toEqual([
      expect.objectContaining({ kind: "booked" }),
      expect.objectContaining({ kind: "rescheduled", amount_cents: 0, from_date: b.serviceDate, to_date: to }),
    ]);
    const sent = await mails(b.id);
    const invite = sent[1]!.attachments![0]!.content;
    const moved = sent.find((m) => m.subject.startsWith("Your service visit is moved"))!;
    const ics = moved.attachments![0]!.content;
    const uid = (text: string) => /^UID:(.+)$/m.exec(text)?.[1]?.trim();
    expect(uid(ics)).toBe(uid(invite));
    expect(ics).toMatch(/^METHOD:REQUEST\r?$/m);
    expect(ics).toMatch(/^SEQUENCE:1\r?$/m);
    const start = windowStart(to, AFTERNOON)
      .toISOString()
      .replace(/[-:]|\.000/g, "");
    expect(ics).toMatch(new RegExp(`^DTSTART:${start}\\r?$`, "m"));
    expect(moved.text).toContain(`Booking reference: ${b.reference}`);
    expect(sent.some((m) => m.subject.startsWith(`Booking ${b.reference} moved`))).toBe(true);
  });

  it("dearer (a weekday to a Saturday): the difference charged once to the card entered again", async () => {
    const b = await book(weekday(2));
    const saturday = addDays(b.serviceDate, 4);
    // Without a card: refused, nothing changed, the card asked for beside its field.
    expect(await move(b.token, { serviceDate: saturday })).toMatchObject({
      ok: false,
      field: "card",
      message: RESCHEDULE_MESSAGES.needsCard("$29.05"),
    });
    // A declined card: refused, the place given back.
    const declined = await move(b.token, { serviceDate: saturday, card: { ...CARD, number: "4000000000000002" } });
    expect(declined).toMatchObject({
      ok: false,
      status: 402,
      message: "Your card was declined. Try another card, or call your bank.",
      field: "card",
    });
    expect(await taken(saturday)).toBe(0);
    // A double click: one charge, both told it moved.
    const changeKey = crypto.randomUUID();
    const [first, second] = await Promise.all([
      move(b.token, { serviceDate: saturday, card: CARD, changeKey }),
      move(b.token, { serviceDate: saturday, card: CARD, changeKey }),
    ]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    expect(first.message).toContain(
      "$29.05 was charged to Visa ending in 4242 for the difference; the visit now costs $159.00.",
    );
    const paid = await bookingPayments(b.id);
    expect(paid.map((p) => [p.amount_cents, p.status])).toEqual([
      [129_95, "approved"],
      [29_05, "approved"],
    ]);
    expect(await taken(b.serviceDate)).toBe(0);
    expect(await taken(saturday)).toBe(1);
    expect((await findBookingByToken(conn.db, b.token))?.totalCents).toBe(159_00);
    expect((await events(b.id)).at(-1)).toMatchObject({ kind: "rescheduled", amount_cents: 29_05 });
  });

  it("cheaper (a Sunday to a weekday): the difference refunded to the card that paid", async () => {
    const b = await book(weekday(0));
    const monday = addDays(b.serviceDate, 1);
    const outcome = await move(b.token, { serviceDate: monday });
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.message).toContain("$69.05 is refunded to the card that paid");
    expect(await bookingPayments(b.id)).toEqual([
      expect.objectContaining({ amount_cents: 199_00, refunded_cents: 69_05, status: "approved" }),
    ]);
    expect((await findBookingByToken(conn.db, b.token))?.totalCents).toBe(129_95);
    expect((await events(b.id)).at(-1)).toMatchObject({ kind: "rescheduled", amount_cents: -69_05 });
  });

  it("cheaper, but the processor refuses the refund: moved, 'refund pending' recorded, never said to be refunded", async () => {
    const b = await book(weekday(6));
    const refusing: PaymentGateway = {
      ...createSandboxGateway(),
      refund: async () => ({ status: "declined", message: "The transaction has not settled." }),
    };
    const outcome = await move(b.token, { serviceDate: addDays(b.serviceDate, 2) }, refusing);
    expect(outcome.ok).toBe(true);
    expect(outcome.message).not.toMatch(/is refunded/);
    expect(outcome.message).toContain("the card processor has not confirmed it yet");
    expect(await bookingPayments(b.id)).toEqual([
      expect.objectContaining({ amount_cents: 159_00, refunded_cents: 0, status: "approved" }),
    ]);
    expect((await events(b.id)).map((e) => e.kind)).toEqual(["booked", "rescheduled", "refund pending"]);
    const alert = (await mails(b.id)).filter((m) => m.text.includes("Action needed"));
    expect(alert).toHaveLength(1);
    expect(alert[0]!.text).toContain("did not confirm the $29.05 refund (The transaction has not settled.)");
  });

  it("cancelled after a dearer move: both charges given back; after a cheaper one: what remains", async () => {
    const dearer = await book(weekday(2));
    await move(dearer.token, { serviceDate: addDays(dearer.serviceDate, 4), card: CARD });
    expect(await cancelBooking(conn.db, dearer.token)).toMatchObject({ ok: true });
    expect((await bookingPayments(dearer.id)).map((p) => [p.amount_cents, p.status])).toEqual([
      [129_95, "voided"],
      [29_05, "voided"],
    ]);
    const cheaper = await book(weekday(0));
    await move(cheaper.token, { serviceDate: addDays(cheaper.serviceDate, 1) });
    const cancelled = await cancelBooking(conn.db, cheaper.token);
    expect(cancelled.message).toContain("$129.95 is refunded to Visa ending in 4242");
    expect(await bookingPayments(cheaper.id)).toEqual([
      expect.objectContaining({ amount_cents: 199_00, refunded_cents: 199_00, status: "refunded" }),
    ]);
  });

  it("two visitors moving into a window's last place at once: one moves, the other is told it is full", async () => {
    const target = weekday(3);
    // Capacity 3: two places taken, one left.
    await book(target, AFTERNOON);
    await book(target, AFTERNOON);
    const a = await book(weekday(2));
    const b = await book(addDays(a.serviceDate, 2));
    const outcomes = await Promise.all([
      move(a.token, { serviceDate: target, serviceTime: AFTERNOON }),
      move(b.token, { serviceDate: target, serviceTime: AFTERNOON }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ status: 409, message: AVAILABILITY_MESSAGES.full });
    expect(await taken(target, AFTERNOON)).toBe(3);
  });

  it("refused: the same time, a past day, after the cut-off, a cancelled booking, an unknown token", async () => {
    const b = await book(weekday(2));
    expect(await move(b.token, { serviceDate: b.serviceDate })).toMatchObject({ message: RESCHEDULE_MESSAGES.same });
    expect(await move(b.token, { serviceDate: "2020-01-07" })).toMatchObject({ ok: false, field: "serviceDate" });
    const late = new Date(changeDeadline(b.serviceDate, MORNING, 24).getTime() + 60_000);
    const afterCutoff = await rescheduleBooking(
      conn.db,
      b.token,
      { serviceDate: addDays(b.serviceDate, 1), serviceTime: MORNING, changeKey: crypto.randomUUID() },
      { now: late },
    );
    expect(afterCutoff).toMatchObject({ ok: false, status: 409, message: RESCHEDULE_MESSAGES.tooLate(24) });
    expect(await move("x".repeat(43), { serviceDate: addDays(b.serviceDate, 1) })).toMatchObject({ status: 404 });
    await conn.db.execute(sql.raw(`update service_requests set booking_status = 'cancelled' where id = ${b.id}`));
    expect(await move(b.token, { serviceDate: addDays(b.serviceDate, 1) })).toMatchObject({
      message: RESCHEDULE_MESSAGES.closed,
    });
  });

  it("the page's form: Show price says what the change costs; a dearer move without a card keeps the day and asks for it", async () => {
    const b = await book(weekday(2));
    const saturday = addDays(b.serviceDate, 4);
    const form = (fields: Record<string, string>) => toFormData(fields);
    const preview = await answerMove(
      conn.db,
      b.token,
      form({ serviceDate: saturday, serviceTime: MORNING, intent: "show-price" }),
      null,
    );
    expect(preview).toMatchObject({ ok: true, change: { dearer: true } });
    expect(preview?.change?.text).toBe(
      "The new time costs $159.00, $29.05 more than you paid: enter your card to pay the difference.",
    );
    const noCard = await answerMove(
      conn.db,
      b.token,
      form({
        serviceDate: saturday,
        serviceTime: MORNING,
        intent: "move",
        changeKey: "k".repeat(24),
        cardNumber: "4242",
      }),
      null,
    );
    expect(noCard).toMatchObject({ ok: false, change: { dearer: true } });
    expect(noCard?.lastResult.initialValue).toMatchObject({ serviceDate: saturday, serviceTime: MORNING });
    // The card number typed is never sent back.
    expect(JSON.stringify(noCard)).not.toContain("4242");
    expect(noCard?.lastResult.error).toHaveProperty("cardNumber");
  });

  it("hostile posts to the move form: refused in words, nothing moved or charged, never a throw", async () => {
    const b = await book(weekday(2));
    const post = (fields: Record<string, string>) => answerMove(conn.db, b.token, toFormData(fields), "10.9.9.9");
    const key = "k".repeat(24);
    const cases: Record<string, string>[] = [
      {},
      { intent: "move" },
      { intent: "move", changeKey: "../../etc", serviceDate: "2027-02-30", serviceTime: MORNING },
      { intent: "move", changeKey: key, serviceDate: "x".repeat(5000), serviceTime: MORNING },
      {
        intent: "move",
        changeKey: key,
        serviceDate: addDays(b.serviceDate, 1),
        serviceTime: "'; drop table payments; --",
      },
      { intent: "move", changeKey: key, serviceDate: "9999-12-31", serviceTime: MORNING },
      { intent: "show-price", serviceDate: "not a date", serviceTime: "" },
      {
        intent: "move",
        changeKey: key,
        serviceDate: addDays(b.serviceDate, 4),
        serviceTime: MORNING,
        cardNumber: "4242424242424242",
        cardCVC: "847",
        cardHolder: "x".repeat(10_000),
        cardExpMonth: "13",
        cardExpYear: "99",
      },
    ];
    for (const fields of cases) {
      const answer = await post(fields);
      expect(answer, JSON.stringify(fields).slice(0, 80)).not.toBeNull();
      if (fields.intent !== "show-price") expect(answer!.ok).toBe(false);
      expect(JSON.stringify(answer)).not.toContain("4242424242424242");
    }
    const page = await findBookingByToken(conn.db, b.token);
    expect(page).toMatchObject({ status: "booked", serviceDate: b.serviceDate, totalCents: 129_95 });
    expect(await bookingPayments(b.id)).toHaveLength(1);
  });
});
