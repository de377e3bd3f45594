import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { CANCEL_MESSAGES, cancelBooking } from "~/booking/cancel.server";
import { changeDeadline } from "~/booking/cutoff";
import { findBookingByToken } from "~/booking/manage.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/booking/availability";
import { weekdayOf } from "~/booking/service-price";
import { loadAvailability } from "~/booking/availability.server";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import type { PaymentGateway } from "~/payments/gateway";
import { MAX_GIVE_BACK_ATTEMPTS } from "~/payments/give-back.server";
import { reconcile } from "~/payments/reconcile.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * Cancelling a paid booking from its page (issue 29 item 4, issue 36) on the real database with
 * the sandbox processor: the booking cancelled and its place freed at once, the charge given back
 * once (voided before it settles; a double click included), the ledger's rows saying so, the
 * visitor's mail withdrawing the invitation (METHOD:CANCEL, the same UID) and the company's; after
 * the cut-off, by phone; a void the processor refuses is never shown as done: the money is said to
 * be pending, asked again by the reconciler, confirmed by mail once it went back, and the company
 * told to act if the processor keeps refusing.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

const MORNING = "Morning (8 AM to 11 AM)";
let weeks = 0;
/** A coming Tuesday (never a holiday's price), a different week for each booking. */
function tuesday(): string {
  let date = addDays(todayInDetroit(), 7 * ++weeks);
  while (weekdayOf(date) !== 2) date = addDays(date, 1);
  return date;
}

/** A paid booking made through the form; its manage token and row. */
async function book() {
  const serviceDate = tuesday();
  const fields = residentialFields(serviceDate, { email: `cancel-${crypto.randomUUID().slice(0, 8)}@example.com` });
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
  return { token, serviceDate, email: fields.email, ...row! };
}

type LedgerRow = { id: number; kind: string; state: string; parent_id: number | null; amount_cents: number };
/** The booking's ledger rows, oldest first, as [kind, state, parent, cents]. */
const ledgerOf = async (bookingId: number) =>
  (
    await rows<LedgerRow>(
      conn.db,
      `select id, kind, state, parent_id, amount_cents from payments
        where reference_table = 'service_requests' and reference_id = ${bookingId} order by id`,
    )
  ).map((r) => [r.kind, r.state, r.parent_id, r.amount_cents]);
const taken = async (date: string) => (await loadAvailability(conn.db)).taken[date]?.[MORNING] ?? 0;
const mailsOf = (bookingId: number) =>
  rows<{ to: string; subject: string; text: string; attachments: { content: string }[] | null }>(
    conn.db,
    `select "to", subject, text, attachments from outbox where source_table = 'service_requests' and source_id = ${bookingId} order by id`,
  );

const VOIDED = "The $129.95 charge was cancelled before it was taken (no money left your card).";
const PENDING =
  "A refund of $129.95 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.";

/** The sandbox on the test's database, its voids refused (and refunds unanswered), counting its calls. */
function refusingSandbox() {
  const sandbox = createSandboxGateway({ db: conn.db });
  const calls = { void: 0, refund: 0 };
  const gateway: PaymentGateway = {
    ...sandbox,
    void: async () => {
      calls.void++;
      return { status: "declined", message: "The transaction cannot be voided." };
    },
    refund: async () => {
      calls.refund++;
      return { status: "unknown", message: "No answer from the processor." };
    },
  };
  return { gateway, calls };
}

describe("cancelling a booking from its page", () => {
  it("voids the charge, frees the place, records it, and mails the visitor (the invitation withdrawn) and the company", async () => {
    const b = await book();
    expect(await taken(b.serviceDate)).toBe(1);
    const outcome = await cancelBooking(conn.db, b.token);
    expect(outcome).toEqual({ ok: true, status: 200, message: `Your booking is cancelled. ${VOIDED}` });
    // The charge has not settled (the sandbox's cut-off is the next midnight): voided, no money taken.
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", null, 129_95],
      ["void", "succeeded", b.payment_id, 129_95],
    ]);
    expect(await taken(b.serviceDate)).toBe(0);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page).toMatchObject({ status: "cancelled", canChange: false, money: { netCents: 0, pendingOutCents: 0 } });
    expect(page?.history.map((h) => h.kind)).toEqual(["booked", "cancelled"]);
    expect(page?.paidLine).toBe("$0.00 paid with Visa ending in 4242.");
    expect(page?.payments.map((p) => p.text)).toEqual(["$129.95 charged to Visa ending in 4242.", VOIDED]);

    const mails = await mailsOf(b.id);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^New residential service booking/),
      expect.stringMatching(/is booked/),
      expect.stringMatching(/^Your service visit on .* is cancelled — /),
      expect.stringMatching(new RegExp(`^Booking ${b.reference} cancelled: `)),
    ]);
    const booked = mails[1]!.attachments![0]!.content;
    const cancelled = mails[2]!.attachments![0]!.content;
    const uid = (ics: string) => /^UID:(.+)$/m.exec(ics)?.[1]?.trim();
    expect(cancelled).toMatch(/^METHOD:CANCEL\r?$/m);
    expect(cancelled).toMatch(/^STATUS:CANCELLED\r?$/m);
    expect(cancelled).toMatch(/^SEQUENCE:1\r?$/m);
    expect(uid(cancelled)).toBe(uid(booked));
    expect(mails[3]!.attachments).toBeNull();
    // The visitor's mail: the reference, the visit that was cancelled, the money, how to book again.
    const visitor = mails[2]!.text;
    expect(visitor).toContain(`Booking reference: ${b.reference}\n`);
    expect(visitor).toMatch(new RegExp(`\nCancelled visit: Tuesday, .+, ${MORNING.replace(/[()]/g, "\\$&")}\n`));
    expect(visitor).toContain(`\nYour money: ${VOIDED}\n`);
    expect(visitor).toContain("Book a new visit at http://localhost:3000/request-service?type=residential");
    expect(visitor).not.toContain("if anything needs correcting");
    // The company's: what changed, the money as the visitor was told it, the place freed.
    const staff = mails[3]!.text;
    expect(staff).toMatch(/\nWhat changed: Cancelled\. It was booked for Tuesday, /);
    expect(staff).toContain(`\nMoney (as the visitor was told): ${VOIDED}\n`);
    expect(staff).toMatch(/\nThe slot: The place on Tuesday, .+ is free again\.\n/);
  });

  it("clicked twice at once: one void, both told it is cancelled; a third time: the same answer, nothing more moves", async () => {
    const b = await book();
    const outcomes = await Promise.all([cancelBooking(conn.db, b.token), cancelBooking(conn.db, b.token)]);
    // The second waits for the first's lock, then says what the first did: the void done, or still on its way.
    for (const o of outcomes) {
      expect(o).toMatchObject({ ok: true, status: 200 });
      expect([`Your booking is cancelled. ${VOIDED}`, `Your booking is cancelled. ${PENDING}`]).toContain(o.message);
    }
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", null, 129_95],
      ["void", "succeeded", b.payment_id, 129_95],
    ]);
    const events = await rows(conn.db, `select kind from booking_events where service_request_id = ${b.id}`);
    expect(events).toHaveLength(2);
    expect(await cancelBooking(conn.db, b.token)).toEqual({
      ok: true,
      status: 200,
      message: `Your booking is cancelled. ${VOIDED}`,
    });
    expect(await ledgerOf(b.id)).toHaveLength(2);
    // One cancellation's mails, not two.
    expect((await mailsOf(b.id)).filter((m) => / cancel/.test(m.subject))).toHaveLength(2);
  });

  it("after the cut-off (24 h before the window): refused, nothing given back or freed", async () => {
    const b = await book();
    const late = new Date(changeDeadline(b.serviceDate, MORNING, 24).getTime() + 60_000);
    const outcome = await cancelBooking(conn.db, b.token, { now: late });
    expect(outcome).toMatchObject({ ok: false, status: 409, message: CANCEL_MESSAGES.tooLate(24) });
    expect(await ledgerOf(b.id)).toEqual([["charge", "succeeded", null, 129_95]]);
    expect(await taken(b.serviceDate)).toBe(1);
    expect(await findBookingByToken(conn.db, b.token)).toMatchObject({ status: "booked" });
  });

  it("a void the processor refuses: cancelled, the money said to be pending (never given back), asked again, mailed once it went back", async () => {
    const b = await book();
    const { gateway, calls } = refusingSandbox();
    const outcome = await cancelBooking(conn.db, b.token, { gateway });
    expect(outcome).toEqual({ ok: true, status: 200, message: `Your booking is cancelled. ${PENDING}` });
    expect(calls).toEqual({ void: 1, refund: 0 });
    // The refusal is on the ledger (nothing moved), followed by a new request for the same money.
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", null, 129_95],
      ["void", "declined", b.payment_id, 129_95],
      ["void", "requested", b.payment_id, 129_95],
    ]);
    expect(await taken(b.serviceDate)).toBe(0);
    const page = await findBookingByToken(conn.db, b.token);
    // Nothing stays paid: all of it is on its way back.
    expect(page).toMatchObject({
      status: "cancelled",
      canChange: false,
      money: { netCents: 129_95, pendingOutCents: 129_95 },
    });
    expect(page?.paidLine).toBe(PENDING);
    expect(page?.payments.map((p) => p.text)).toEqual(["$129.95 charged to Visa ending in 4242.", PENDING]);
    // The mails say the same: pending, never voided or refunded.
    const [visitor, staff] = (await mailsOf(b.id)).slice(2);
    expect(visitor?.subject).toMatch(/^Your service visit on .* is cancelled — /);
    expect(visitor?.text).toContain(`\nYour money: ${PENDING}\n`);
    expect(staff?.subject).toMatch(new RegExp(`^Booking ${b.reference} cancelled: `));
    expect(staff?.text).toContain(`\nMoney (as the visitor was told): ${PENDING}\n`);
    for (const text of [visitor!.text, staff!.text]) expect(text).not.toMatch(/refunded|cancelled before it was taken/);

    // Sent again: told the same, nothing sent to the processor, nothing added to the ledger.
    expect(await cancelBooking(conn.db, b.token, { gateway })).toEqual(outcome);
    expect(calls).toEqual({ void: 1, refund: 0 });
    expect(await ledgerOf(b.id)).toHaveLength(3);

    // The reconciler asks again, and this time the processor voids it: the visitor and the company are told.
    const events = await reconcile(conn.db, {
      gateway: createSandboxGateway({ db: conn.db }),
      hooks: ledgerHooks,
      graceMs: 0,
    });
    expect(events.map((e) => e.kind)).toEqual(["gave-back"]);
    expect(await ledgerOf(b.id)).toEqual([
      ["charge", "succeeded", null, 129_95],
      ["void", "declined", b.payment_id, 129_95],
      ["void", "succeeded", b.payment_id, 129_95],
    ]);
    const later = (await mailsOf(b.id)).slice(4);
    expect(later.map((m) => m.subject)).toEqual([
      expect.stringContaining(`Your money for booking ${b.reference}`),
      expect.stringMatching(new RegExp(`^Booking ${b.reference}: money confirmed`)),
    ]);
    expect(later[0]!.text).toContain(`\nYour money: ${VOIDED}\n`);
    expect((await findBookingByToken(conn.db, b.token))?.paidLine).toBe("$0.00 paid with Visa ending in 4242.");
    // A second round finds nothing to do.
    expect(
      await reconcile(conn.db, { gateway: createSandboxGateway({ db: conn.db }), hooks: ledgerHooks, graceMs: 0 }),
    ).toEqual([]);
  });

  it(`a processor that keeps refusing: asked ${MAX_GIVE_BACK_ATTEMPTS} times in all, then the company is told to refund it by hand`, async () => {
    const b = await book();
    const { gateway, calls } = refusingSandbox();
    expect((await cancelBooking(conn.db, b.token, { gateway })).message).toBe(`Your booking is cancelled. ${PENDING}`);
    const kinds: string[] = [];
    for (let round = 0; round < MAX_GIVE_BACK_ATTEMPTS + 1; round++)
      kinds.push(...(await reconcile(conn.db, { gateway, hooks: ledgerHooks, graceMs: 0 })).map((e) => e.kind));
    expect(kinds).toEqual(["stuck"]);
    expect(calls.void).toBe(MAX_GIVE_BACK_ATTEMPTS);
    const ledger = await ledgerOf(b.id);
    expect(ledger.filter(([kind]) => kind === "void")).toEqual(
      Array.from({ length: MAX_GIVE_BACK_ATTEMPTS }, () => ["void", "declined", b.payment_id, 129_95]),
    );
    const [action] = await rows<{ subject: string; text: string }>(
      conn.db,
      `select subject, text from outbox where subject like 'Action needed: $129.95 could not be given back (payment #${b.payment_id})'`,
    );
    expect(action?.text).toContain("Refund it by hand in the processor's dashboard.");
    // Never told it went back: the page still says what was paid and nothing confirmed.
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.paidLine).toBe("$129.95 paid with Visa ending in 4242.");
    expect(page?.payments.map((p) => p.text)).toEqual(["$129.95 charged to Visa ending in 4242."]);
  });

  it("an unknown or malformed token: not found, nothing read", async () => {
    expect(await cancelBooking(conn.db, "x".repeat(43))).toMatchObject({ status: 404 });
    expect(await cancelBooking(conn.db, "../etc")).toMatchObject({ status: 404 });
  });
});
