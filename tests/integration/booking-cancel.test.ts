import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { CANCEL_MESSAGES, cancelBooking } from "~/booking/cancel.server";
import { changeDeadline } from "~/booking/cutoff";
import { findBookingByToken } from "~/booking/manage.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/forms/residential/availability";
import { weekdayOf } from "~/payments/service-price";
import { loadAvailability } from "~/forms/residential/availability.server";
import { residentialServiceForm } from "~/forms/residential/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import type { PaymentGateway } from "~/payments/gateway";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { residentialFields } from "./payments-support";

/**
 * Cancelling a paid booking from its page (issue 29 item 4) on the real database with the
 * sandbox gateway: the charge voided once (a double click included), the place freed, the booking
 * cancelled with its history line, the visitor's mail withdrawing the invitation (METHOD:CANCEL,
 * the same UID) and the company's; after the cut-off, by phone; a refund the processor refuses
 * leaves it "cancellation pending" and tells the company, never the visitor that it was refunded.
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

const paymentStatus = async (id: number) =>
  (await rows<{ status: string }>(conn.db, `select status from payments where id = ${id}`))[0]!.status;
const taken = async (date: string) => (await loadAvailability(conn.db)).taken[date]?.[MORNING] ?? 0;

describe("cancelling a booking from its page", () => {
  it("voids the charge, frees the place, records it, and mails the visitor (the invitation withdrawn) and the company", async () => {
    const b = await book();
    expect(await taken(b.serviceDate)).toBe(1);
    const outcome = await cancelBooking(conn.db, b.token);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.message).toBe(
      "Your booking is cancelled. The $129.95 payment on Visa ending in 4242 is cancelled: it will not be charged.",
    );
    expect(await paymentStatus(b.payment_id)).toBe("voided");
    expect(await taken(b.serviceDate)).toBe(0);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page).toMatchObject({ status: "cancelled", canChange: false });
    expect(page?.history.map((h) => h.kind)).toEqual(["booked", "cancelled"]);

    const mails = await rows<{ to: string; subject: string; text: string; attachments: { content: string }[] | null }>(
      conn.db,
      `select "to", subject, text, attachments from outbox where source_table = 'service_requests' and source_id = ${b.id} order by id`,
    );
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
    expect(visitor).toContain(
      "\nYour money: The $129.95 payment on Visa ending in 4242 is cancelled: it will not be charged.\n",
    );
    expect(visitor).toContain("Book a new visit at http://localhost:3000/request-service?type=residential");
    expect(visitor).not.toContain("if anything needs correcting");
    // The company's: what changed, the money, the place freed.
    const staff = mails[3]!.text;
    expect(staff).toMatch(/\nWhat changed: Cancelled\. It was booked for Tuesday, /);
    expect(staff).toContain("The $129.95 payment on Visa ending in 4242 is cancelled");
    expect(staff).toMatch(/\nThe slot: The place on Tuesday, .+ is free again\.\n/);
  });

  it("clicked twice at once: one void, both told it is cancelled (or already); a third time: already cancelled", async () => {
    const b = await book();
    const outcomes = await Promise.all([cancelBooking(conn.db, b.token), cancelBooking(conn.db, b.token)]);
    // The second waits for the first: told it is cancelled, or (the first done before it looked) already cancelled.
    for (const o of outcomes) {
      expect(o.ok).toBe(true);
      expect(o.message.startsWith("Your booking is cancelled.") || o.message === CANCEL_MESSAGES.already).toBe(true);
    }
    expect(await paymentStatus(b.payment_id)).toBe("voided");
    const events = await rows(conn.db, `select kind from booking_events where service_request_id = ${b.id}`);
    expect(events).toHaveLength(2);
    expect(await cancelBooking(conn.db, b.token)).toMatchObject({ ok: true, message: CANCEL_MESSAGES.already });
  });

  it("after the cut-off (24 h before the window): refused, nothing refunded or freed", async () => {
    const b = await book();
    const late = new Date(changeDeadline(b.serviceDate, MORNING, 24).getTime() + 60_000);
    const outcome = await cancelBooking(conn.db, b.token, { now: late });
    expect(outcome).toMatchObject({ ok: false, status: 409, message: CANCEL_MESSAGES.tooLate(24) });
    expect(await paymentStatus(b.payment_id)).toBe("approved");
    expect(await taken(b.serviceDate)).toBe(1);
  });

  it("a refund the processor refuses: cancellation pending, the place kept, the company told; never shown as refunded", async () => {
    const b = await book();
    const sandbox = createSandboxGateway();
    const refusing: PaymentGateway = {
      ...sandbox,
      void: async () => ({ status: "declined", message: "The transaction cannot be voided." }),
      refund: async () => ({ status: "unknown", message: "No answer from the processor." }),
    };
    const outcome = await cancelBooking(conn.db, b.token, { gateway: refusing });
    expect(outcome).toMatchObject({ ok: false, status: 202, message: CANCEL_MESSAGES.pending });
    expect(await paymentStatus(b.payment_id)).toBe("approved");
    expect(await taken(b.serviceDate)).toBe(1);
    expect(await findBookingByToken(conn.db, b.token)).toMatchObject({ status: "cancellation pending" });
    const [staff] = await rows<{ subject: string; text: string }>(
      conn.db,
      `select subject, text from outbox where source_table = 'service_requests' and source_id = ${b.id} order by id desc limit 1`,
    );
    expect(staff?.subject).toBe(`Action needed: refund for booking ${b.reference}`);
    expect(staff?.text).toContain("State: Cancellation pending: its place in the slot is still held\n");
    expect(staff?.text).toContain("The processor's answer: No answer from the processor.\n");
    expect(staff?.text).toContain("What to do\n");
    // Sent again: told the same, no second refund attempt.
    expect(await cancelBooking(conn.db, b.token, { gateway: refusing })).toMatchObject({ status: 202 });
  });

  it("an unknown or malformed token: not found, nothing read", async () => {
    expect(await cancelBooking(conn.db, "x".repeat(43))).toMatchObject({ status: 404 });
    expect(await cancelBooking(conn.db, "../etc")).toMatchObject({ status: 404 });
  });
});
