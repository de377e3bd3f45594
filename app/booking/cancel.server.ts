import { eq } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { company } from "~/lib/company";
import { env } from "~/lib/env.server";
import type { PaymentGateway } from "~/payments/gateway";
import { performGiveBacks, requestGiveBack } from "~/payments/give-back.server";
import { moneyOf } from "~/payments/ledger.server";
import type { ServiceTime } from "~/booking/service-price";
import { canChangeOnline } from "./cutoff";
import { changeSentence, finishMoneyChange, lockBookingByToken, BOOKING_BUSY } from "./change.server";
import { bookingRecord } from "~/payments/record";
import { dropReminder } from "./reminders.server";

/**
 * Cancelling a paid booking from its page (issue 29 item 4, issue 36, DECISIONS 31): until the
 * cut-off. Under the booking's row lock, in one transaction: the booking is cancelled (its place
 * freed, its reminder dropped, its history line written) and the ledger's requests to give back
 * what it has actually been paid (net, from the ledger) are committed. Then, no transaction open,
 * the processor voids (not settled yet) or refunds each charge; then the mails say what moved, in
 * the ledger's words. Whatever dies in between, the reconciler sends what was requested and
 * writes the mails (./change.server.ts, app/payments/reconcile.server.ts).
 *
 * A double click's twin takes the lock after the first and finds the booking cancelled: it
 * answers with what the first did.
 */
export type CancelOutcome = { ok: boolean; status: number; message: string };

export const CANCEL_MESSAGES = {
  notFound: "This booking could not be found.",
  already: "This booking is already cancelled.",
  tooLate: (hours: number) =>
    `Online changes close ${hours} hours before the visit's window. Please call us at ${company.phone.display} and we will do what we can.`,
  unknownPayment: `We could not confirm this booking's payment yet, so it cannot be refunded online. Please call us at ${company.phone.display}.`,
} as const;

export async function cancelBooking(
  db: Database,
  token: string | undefined,
  { now = new Date(), gateway }: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<CancelOutcome> {
  const cutoff = env().BOOKING_CHANGE_CUTOFF_HOURS;
  const changeKey = (id: number) => `cancel:${id}:`;
  // Step 1, one transaction under the booking's lock: the cancellation and the ledger's requests.
  const step = await db.transaction(async (tx) => {
    const row = await lockBookingByToken(tx, token);
    if (!row) return { refusal: { ok: false, status: 404, message: CANCEL_MESSAGES.notFound } };
    if (row.bookingStatus === "cancelled" || row.bookingStatus === "cancellation pending") return { done: row.id };
    if (!canChangeOnline(row.serviceDate, row.serviceTime as ServiceTime, cutoff, now))
      return { refusal: { ok: false, status: 409, message: CANCEL_MESSAGES.tooLate(cutoff) } };
    if (row.paymentStatus !== "paid")
      return { refusal: { ok: false, status: 409, message: CANCEL_MESSAGES.unknownPayment } };
    const money = await moneyOf(tx, bookingRecord(row.id));
    // A charge of this booking still open (a move being paid, an unknown answer) finishes first.
    if (money.openCharge) return { refusal: { ok: false, status: 409, message: BOOKING_BUSY } };
    const owed = money.netCents - money.pendingOutCents;
    const ids = await requestGiveBack(tx, {
      reference: bookingRecord(row.id),
      cents: Math.max(0, owed),
      intent: "cancel",
      key: changeKey(row.id),
    });
    await tx.update(serviceRequests).set({ bookingStatus: "cancelled" }).where(eq(serviceRequests.id, row.id));
    await tx.insert(bookingEvents).values({
      serviceRequestId: row.id,
      kind: "cancelled",
      fromDate: row.serviceDate,
      fromTime: row.serviceTime,
      amountCents: -owed,
      paymentId: ids[0] ?? null,
      changeKey: changeKey(row.id),
      note: "Cancelled online.",
    });
    await dropReminder(tx, row.id);
    return { ids, row };
  });
  if ("refusal" in step) return step.refusal!;
  if ("done" in step) return { ok: true, status: 200, message: await cancelledMessage(db, step.done!) };

  // Step 2, no transaction open: the processor gives the money back (void before settlement, else refund).
  await performGiveBacks(db, step.ids!, { gateway });
  // Step 3: the mails, in the words of what moved; the rows resolved with them.
  await finishMoneyChange(db, step.row!.id, changeKey(step.row!.id), token);
  return { ok: true, status: 200, message: await cancelledMessage(db, step.row!.id) };
}

/** "Your booking is cancelled. The $129.95 charge was cancelled before it was taken (no money left your card)." */
async function cancelledMessage(db: Database, bookingId: number): Promise<string> {
  const said = await changeSentence(db, bookingId, `cancel:${bookingId}:`);
  return `Your booking is cancelled.${said ? ` ${said}` : ""}`;
}
