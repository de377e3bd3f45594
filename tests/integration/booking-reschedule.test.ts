import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { Connection } from "@db/client.server";
import { changeDeadline, windowStart } from "~/booking/cutoff";
import { cancelBooking } from "~/booking/cancel.server";
import { findBookingByToken } from "~/booking/manage.server";
import { answerMove } from "~/booking/move-form.server";
import { RESCHEDULE_MESSAGES } from "~/booking/reschedule.server";
import { postMove, type MoveRequest } from "./move-support";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays, AVAILABILITY_MESSAGES } from "~/booking/availability";
import { loadAvailability } from "~/booking/availability.server";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import type { PaymentGateway } from "~/payments/gateway";
import { reconcile } from "~/payments/reconcile.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { SERVICE_PRICE_MESSAGES, weekdayOf, type ServiceTime } from "~/booking/service-price";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * Moving a paid booking from its page (issue 29 item 5, issue 36) on the real database with the
 * sandbox processor: the same price moves it; a dearer window charges the difference once (a
 * double click included) to a card entered again; a cheaper one gives the difference back to the
 * card that paid — refunded at once when the charge has settled, said to be pending (and refunded
 * by the reconciler, with a mail) while it has not; the old place is freed and the new one taken in
 * one transaction, so the last place of a window goes to one of two visitors moving into it at
 * once; every change is in the history and on the ledger, and the visitor gets an updated
 * invitation (same UID, SEQUENCE one higher).
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

const move = (token: string, to: Partial<MoveRequest>, gateway?: PaymentGateway) =>
  postMove(
    conn.db,
    token,
    { serviceDate: "", serviceTime: MORNING, changeKey: crypto.randomUUID(), ...to },
    gateway ? { gateway } : {},
  );

const taken = async (date: string, time: ServiceTime = MORNING) =>
  (await loadAvailability(conn.db)).taken[date]?.[time] ?? 0;
/** The booking's ledger rows, oldest first, as [kind, state, cents]. */
const ledgerOf = async (id: number) =>
  (
    await rows<{ kind: string; state: string; amount_cents: number; parent_id: number | null }>(
      conn.db,
      `select kind, state, amount_cents, parent_id from payments where reference_table = 'service_requests' and reference_id = ${id} order by id`,
    )
  ).map((r) => [r.kind, r.state, r.amount_cents]);
/**
 * The processor a day and a half from now: the booking's charge has settled (the sandbox settles
 * at the next midnight in Detroit), so what goes back is refunded, no longer voided or waiting.
 */
const settledSandbox = () => createSandboxGateway({ db: conn.db, now: () => new Date(Date.now() + 36 * 3_600_000) });
const reconcileSettled = () => reconcile(conn.db, { gateway: settledSandbox(), hooks: ledgerHooks, graceMs: 0 });
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
      /^Your visit is moved to Wednesday, .+, Afternoon \(11 AM to 2 PM\)\. Nothing was charged or refunded: the new time costs the same\.$/,
    );
    expect(await taken(b.serviceDate)).toBe(0);
    expect(await taken(to, AFTERNOON)).toBe(1);
    expect(await ledgerOf(b.id)).toEqual([["charge", "succeeded", 129_95]]);
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
    expect(moved.text).toContain("\nYour money: Nothing was charged or refunded: the new time costs the same.\n");
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
    // Said as every paid form says a decline (the form's message, above the card fields).
    expect(declined).toEqual({
      ok: false,
      status: 402,
      message: "Your card was declined. Try another card, or call your bank.",
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
    expect(first.message).toMatch(/^Your visit is moved to Saturday, .+\. \$29\.05 charged to Visa ending in 4242\.$/);
    expect(second.message).toBe(first.message);
    // The declined card's attempt stays on the ledger (nothing moved); one difference charged.
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", 129_95],
      ["charge", "declined", 29_05],
      ["charge", "succeeded", 29_05],
    ]);
    expect(await taken(b.serviceDate)).toBe(0);
    expect(await taken(saturday)).toBe(1);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.totalCents).toBe(159_00);
    expect(page?.paidLine).toBe("$159.00 paid with Visa ending in 4242.");
    expect((await events(b.id)).at(-1)).toMatchObject({ kind: "rescheduled", amount_cents: 29_05 });
  });

  it("cheaper (a Sunday to a weekday): the difference refunded to the card that paid, at once once the charge has settled", async () => {
    const b = await book(weekday(0));
    const monday = addDays(b.serviceDate, 1);
    const outcome = await move(b.token, { serviceDate: monday }, settledSandbox());
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.message).toMatch(
      /^Your visit is moved to Monday, .+\. \$69\.05 refunded to Visa ending in 4242 \(it shows within 5–10 business days\)\.$/,
    );
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", 199_00],
      ["refund", "succeeded", 69_05],
    ]);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.totalCents).toBe(129_95);
    expect(page?.paidLine).toBe("$129.95 paid with Visa ending in 4242.");
    expect((await events(b.id)).at(-1)).toMatchObject({ kind: "rescheduled", amount_cents: -69_05 });
    const moved = (await mails(b.id)).find((m) => m.subject.startsWith("Your service visit is moved"))!;
    expect(moved.text).toContain(
      "\nYour money: $69.05 refunded to Visa ending in 4242 (it shows within 5–10 business days).\n",
    );
  });

  it("cheaper the same day it was paid: the refund waits for the charge to settle, said to be pending, then refunded and mailed", async () => {
    const b = await book(weekday(0));
    const outcome = await move(b.token, { serviceDate: addDays(b.serviceDate, 1) });
    expect(outcome).toMatchObject({ ok: true });
    // A part of a charge that has not settled cannot be voided, nor refunded yet: never said to be refunded.
    expect(outcome.message).toMatch(
      /^Your visit is moved to Monday, .+\. A refund of \$69\.05 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day\.$/,
    );
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", 199_00],
      ["refund", "requested", 69_05],
    ]);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.totalCents).toBe(129_95);
    expect(page?.paidLine).toBe(
      "$129.95 paid with Visa ending in 4242; a refund of $69.05 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.",
    );
    // Before the charge settles the reconciler leaves it waiting; after, it refunds it and the visitor is told.
    expect(await reconcile(conn.db, { hooks: ledgerHooks, graceMs: 0 })).toEqual([]);
    expect((await reconcileSettled()).map((e) => e.kind)).toEqual(["gave-back"]);
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", 199_00],
      ["refund", "succeeded", 69_05],
    ]);
    const confirmed = (await mails(b.id)).filter((m) => m.subject.includes(`Your money for booking ${b.reference}`));
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]!.text).toContain(
      "\nYour money: $69.05 refunded to Visa ending in 4242 (it shows within 5–10 business days).\n",
    );
    expect((await findBookingByToken(conn.db, b.token))?.paidLine).toBe("$129.95 paid with Visa ending in 4242.");
    expect(await reconcileSettled()).toEqual([]);
  });

  it("cheaper, but the processor refuses the refund: moved, the refund pending and asked again, never said to be refunded", async () => {
    const b = await book(weekday(6));
    const refusing: PaymentGateway = {
      ...settledSandbox(),
      refund: async () => ({ status: "declined", message: "The transaction has not settled." }),
    };
    const outcome = await move(b.token, { serviceDate: addDays(b.serviceDate, 2) }, refusing);
    expect(outcome.ok).toBe(true);
    expect(outcome.message).not.toMatch(/refunded/);
    expect(outcome.message).toMatch(
      /\. A refund of \$29\.05 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day\.$/,
    );
    // The refusal is on the ledger (nothing moved), followed by a new request for the same money.
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", 159_00],
      ["refund", "declined", 29_05],
      ["refund", "requested", 29_05],
    ]);
    expect((await events(b.id)).map((e) => e.kind)).toEqual(["booked", "rescheduled"]);
    const sent = await mails(b.id);
    const staff = sent.find((m) => m.subject.startsWith(`Booking ${b.reference} moved`))!;
    expect(staff.text).toContain(
      "\nMoney (as the visitor was told): A refund of $29.05 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.\n",
    );
    for (const m of sent) expect(m.text).not.toMatch(/refunded to/);
  });

  it("cancelled after a dearer move: both charges given back; after a cheaper one: what remains", async () => {
    const dearer = await book(weekday(2));
    await move(dearer.token, { serviceDate: addDays(dearer.serviceDate, 4), card: CARD });
    const cancelledDearer = await cancelBooking(conn.db, dearer.token);
    expect(cancelledDearer).toMatchObject({ ok: true });
    // Neither charge has settled: both voided, newest first.
    expect(cancelledDearer.message).toBe(
      "Your booking is cancelled. The $29.05 charge was cancelled before it was taken (no money left your card); the $129.95 charge was cancelled before it was taken (no money left your card).",
    );
    expect(await ledgerOf(dearer.id)).toEqual([
      ["charge", "succeeded", 129_95],
      ["charge", "succeeded", 29_05],
      ["void", "succeeded", 29_05],
      ["void", "succeeded", 129_95],
    ]);

    const cheaper = await book(weekday(0));
    await move(cheaper.token, { serviceDate: addDays(cheaper.serviceDate, 1) }, settledSandbox());
    const cancelled = await cancelBooking(conn.db, cheaper.token, { gateway: settledSandbox() });
    expect(cancelled.message).toBe(
      "Your booking is cancelled. $129.95 refunded to Visa ending in 4242 (it shows within 5–10 business days).",
    );
    expect(await ledgerOf(cheaper.id)).toEqual([
      ["charge", "succeeded", 199_00],
      ["refund", "succeeded", 69_05],
      ["refund", "succeeded", 129_95],
    ]);
    expect((await findBookingByToken(conn.db, cheaper.token))?.paidLine).toBe("$0.00 paid with Visa ending in 4242.");

    // Dearer, then back to a cheaper window (the difference's charge voided), then cancelled: the first charge goes back whole.
    const there = await book(weekday(2));
    const saturday = addDays(there.serviceDate, 4);
    expect((await move(there.token, { serviceDate: saturday, card: CARD })).ok).toBe(true);
    expect((await move(there.token, { serviceDate: addDays(saturday, 2) })).message).toMatch(
      /\. The \$29\.05 charge was cancelled before it was taken \(no money left your card\)\.$/,
    );
    expect((await cancelBooking(conn.db, there.token)).message).toBe(
      "Your booking is cancelled. The $129.95 charge was cancelled before it was taken (no money left your card).",
    );
    expect(await ledgerOf(there.id)).toEqual([
      ["charge", "succeeded", 129_95],
      ["charge", "succeeded", 29_05],
      ["void", "succeeded", 29_05],
      ["void", "succeeded", 129_95],
    ]);
    // The processor's books agree: both charges voided, once each.
    expect(
      await rows(
        conn.db,
        `select type, status, amount_cents from sandbox_transactions where id in (select processor_transaction_id from payments where reference_table = 'service_requests' and reference_id = ${there.id} and kind = 'charge') or parent_id in (select processor_transaction_id from payments where reference_table = 'service_requests' and reference_id = ${there.id} and kind = 'charge') order by amount_cents, type`,
      ),
    ).toEqual([
      { type: "charge", status: "voided", amount_cents: 29_05 },
      { type: "void", status: "approved", amount_cents: 29_05 },
      { type: "charge", status: "voided", amount_cents: 129_95 },
      { type: "void", status: "approved", amount_cents: 129_95 },
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
    const late = new Date(changeDeadline(b.serviceDate, MORNING, 24).getTime() + 60_000);
    const afterCutoff = await postMove(
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
    const other = await book(weekday(2));
    expect(await move(other.token, { serviceDate: "2020-01-07" })).toMatchObject({
      ok: false,
      field: "serviceDate",
      message: SERVICE_PRICE_MESSAGES.past,
    });
    expect(await ledgerOf(other.id)).toEqual([["charge", "succeeded", 129_95]]);
  });

  it("the page's form: Show price says what the change costs; a dearer move without a card keeps the day and asks for it", async () => {
    const b = await book(weekday(2));
    const saturday = addDays(b.serviceDate, 4);
    const form = (fields: Record<string, string>) => formPost(`/booking/${b.token}?move`, toFormData(fields));
    const preview = await answerMove(
      conn.db,
      form({ serviceDate: saturday, serviceTime: MORNING, intent: "show-price" }),
      null,
    );
    expect(preview).toMatchObject({ ok: true, change: { dearer: true } });
    expect(preview?.change?.text).toBe(
      "The new time costs $159.00; you have paid $129.95, so $29.05 more: enter your card to pay the difference.",
    );
    const noCard = await answerMove(
      conn.db,
      form({
        serviceDate: saturday,
        serviceTime: MORNING,
        intent: "move",
        submission_key: "k".repeat(24),
        cardNumber: "4242",
      }),
      null,
    );
    expect(noCard).toMatchObject({ ok: false, change: { dearer: true } });
    expect(noCard?.lastResult?.initialValue).toMatchObject({ serviceDate: saturday, serviceTime: MORNING });
    // The card number typed is never sent back.
    expect(JSON.stringify(noCard)).not.toContain("4242");
    expect(noCard?.lastResult?.error).toHaveProperty("cardNumber");
  });

  it("hostile posts to the move form: refused in words, nothing moved or charged, never a throw", async () => {
    const b = await book(weekday(2));
    const post = (fields: Record<string, string>) =>
      answerMove(conn.db, formPost(`/booking/${b.token}?move`, toFormData(fields)), "10.9.9.9");
    const key = "k".repeat(24);
    const cases: Record<string, string>[] = [
      {},
      { intent: "move" },
      { intent: "move", submission_key: "../../etc", serviceDate: "2027-02-30", serviceTime: MORNING },
      { intent: "move", submission_key: key, serviceDate: "x".repeat(5000), serviceTime: MORNING },
      {
        intent: "move",
        submission_key: key,
        serviceDate: addDays(b.serviceDate, 1),
        serviceTime: "'; drop table payments; --",
      },
      { intent: "move", submission_key: key, serviceDate: "9999-12-31", serviceTime: MORNING },
      // A day that does not exist, within the booking horizon, with a real window.
      {
        intent: "move",
        submission_key: key,
        serviceDate: `${addDays(todayInDetroit(), 30).slice(0, 7)}-32`,
        serviceTime: MORNING,
      },
      { intent: "show-price", serviceDate: "not a date", serviceTime: "" },
      {
        intent: "move",
        submission_key: key,
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
      // Refused for what was sent, never a server error.
      expect(answer!.status, JSON.stringify(fields).slice(0, 80)).toBeLessThan(500);
      expect(JSON.stringify(answer)).not.toContain("4242424242424242");
    }
    const page = await findBookingByToken(conn.db, b.token);
    expect(page).toMatchObject({ status: "booked", serviceDate: b.serviceDate, totalCents: 129_95 });
    expect(await ledgerOf(b.id)).toEqual([["charge", "succeeded", 129_95]]);
  });
});
