import { setTimeout as sleep } from "node:timers/promises";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { bookingEvents, payments, serviceRequests } from "@db/schema";
import { company } from "~/content/company";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { mailCancellation, mailCancellationPending } from "~/mail/booking-mail.server";
import { formatUsd } from "~/payments/money";
import type { PaymentGateway } from "~/payments/gateway";
import { refundPayment, voidPayment } from "~/payments/payments.server";
import { claimState } from "~/forms/submission-keys.server";
import { RESCHEDULE_MESSAGES } from "./reschedule.server";
import type { ServiceTime } from "~/payments/service-price";
import { canChangeOnline } from "./cutoff";
import { isManageToken, managePath, manageTokenHash } from "./reference.server";
import { bookingMailFacts } from "./facts.server";
import { dropReminder } from "./reminders.server";

/**
 * Cancelling a paid booking from its page (issue 29 item 4, DECISIONS 31): until the cut-off, the
 * charge is voided (not settled yet) or refunded in full, the place freed, the booking marked
 * cancelled, the visitor and the company mailed. A refund the processor refuses or does not
 * answer leaves it "cancellation pending" (its place still held) and mails the company; it is
 * never shown as refunded. The booking row's lock makes one cancellation of a double click: the
 * second finds it under way and waits for its outcome.
 */
export type CancelOutcome = { ok: boolean; status: number; message: string };

export const CANCEL_MESSAGES = {
  notFound: "This booking could not be found.",
  already: "This booking is already cancelled.",
  tooLate: (hours: number) =>
    `Online changes close ${hours} hours before the visit's window. Please call us at ${company.phone.display} and we will do what we can.`,
  pending: `Your cancellation is recorded, but the card processor has not confirmed the refund yet. Our office is checking it and will contact you; you do not need to do anything. Questions: ${company.phone.display}.`,
  unknownPayment: `We could not confirm this booking's payment yet, so it cannot be refunded online. Please call us at ${company.phone.display}.`,
} as const;

export async function cancelBooking(
  db: Database,
  token: string | undefined,
  { now = new Date(), gateway }: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<CancelOutcome> {
  if (!isManageToken(token)) return { ok: false, status: 404, message: CANCEL_MESSAGES.notFound };
  const hash = manageTokenHash(token);
  const cutoff = env().BOOKING_CHANGE_CUTOFF_HOURS;
  // Step 1, one short transaction: the booking claimed for this cancellation (or why not).
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.manageTokenHash, hash))
      .for("update")
      .limit(1);
    if (!row || row.kind !== "residential")
      return { refusal: { ok: false, status: 404, message: CANCEL_MESSAGES.notFound } };
    if (row.bookingStatus === "cancelled")
      return { refusal: { ok: true, status: 200, message: CANCEL_MESSAGES.already } };
    if (row.bookingStatus === "cancellation pending") return { running: row };
    if (!canChangeOnline(row.serviceDate, row.serviceTime as ServiceTime, cutoff, now))
      return { refusal: { ok: false, status: 409, message: CANCEL_MESSAGES.tooLate(cutoff) } };
    if (row.paymentStatus !== "paid")
      return { refusal: { ok: false, status: 409, message: CANCEL_MESSAGES.unknownPayment } };
    // A move of this booking under way (./reschedule.server.ts) finishes first.
    if ((await claimState(tx, `booking-change:${row.id}`)).state === "running")
      return { refusal: { ok: false, status: 409, message: RESCHEDULE_MESSAGES.busy } };
    await tx
      .update(serviceRequests)
      .set({ bookingStatus: "cancellation pending" })
      .where(eq(serviceRequests.id, row.id));
    return { row };
  });
  if ("refusal" in claimed) return claimed.refusal!;
  if ("running" in claimed) return awaitCancellation(db, claimed.running!.id);
  const row = claimed.row!;

  // Step 2, no transaction open: the processor gives the money back (void before settlement, else refund).
  const back = await giveBackAll(db, row.id, gateway);
  const done = back.ok;

  // Step 3: the booking's new state, its history line and its mails, together; once cancelled, its
  // reminder goes too (one still "cancellation pending" keeps it: the job sends nothing for it).
  const facts = await bookingMailFacts(db, row, "Cancelled.", { manageUrl: `${env().SITE_URL}${managePath(token)}` });
  const amount = formatUsd(row.totalCents ?? 0);
  const money = done
    ? back.allVoided
      ? `The ${amount} payment on ${facts.card} is cancelled: it will not be charged.`
      : `${amount} is refunded to ${facts.card}; it shows on your statement within a few business days.`
    : "";
  await db.transaction(async (tx) => {
    await tx
      .update(serviceRequests)
      .set({ bookingStatus: done ? "cancelled" : "cancellation pending" })
      .where(eq(serviceRequests.id, row.id));
    await tx.insert(bookingEvents).values({
      serviceRequestId: row.id,
      kind: done ? "cancelled" : "cancellation pending",
      fromDate: row.serviceDate,
      fromTime: row.serviceTime,
      amountCents: done ? -(row.totalCents ?? 0) : null,
      paymentId: row.paymentId,
      note: done
        ? `Cancelled online. ${money}`
        : "Cancelled online; the refund is not confirmed yet (our office is checking it).",
    });
    if (done) {
      await dropReminder(tx, row.id);
      await mailCancellation(tx, facts.mail, money);
    } else await mailCancellationPending(tx, facts.mail, back.message ?? "no answer");
  });
  if (!done) log.error({ bookingId: row.id, paymentId: row.paymentId }, "booking cancelled but not refunded");
  return done
    ? { ok: true, status: 200, message: `Your booking is cancelled. ${money}` }
    : { ok: false, status: 202, message: CANCEL_MESSAGES.pending };
}

/** A twin of a cancellation under way (a double click) answers with its outcome, polling its history. */
async function awaitCancellation(db: Database, id: number): Promise<CancelOutcome> {
  const deadline = Date.now() + env().PAYMENT_TIMEOUT_MS * 2 + 5_000;
  for (;;) {
    const [row] = await db
      .select({
        status: serviceRequests.bookingStatus,
        note: sql<
          string | null
        >`(select note from ${bookingEvents} where service_request_id = ${id} order by id desc limit 1)`,
      })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, id));
    const [pendingEvent] = await db
      .select({ id: bookingEvents.id })
      .from(bookingEvents)
      .where(and(eq(bookingEvents.serviceRequestId, id), eq(bookingEvents.kind, "cancellation pending")))
      .limit(1);
    if (row?.status === "cancelled")
      return {
        ok: true,
        status: 200,
        message: `Your booking is cancelled. ${row.note?.replace(/^Cancelled online\. /, "") ?? ""}`.trim(),
      };
    if (pendingEvent || Date.now() > deadline) return { ok: false, status: 202, message: CANCEL_MESSAGES.pending };
    await sleep(200);
  }
}

/**
 * Every charge of the booking given back: the first payment and any difference a move charged,
 * each voided when it has not settled (and nothing of it was refunded yet), else refunded for
 * what remains of it (a cheaper move may have refunded part).
 */
async function giveBackAll(
  db: Database,
  bookingId: number,
  gateway?: PaymentGateway,
): Promise<{ ok: boolean; allVoided: boolean; message?: string }> {
  const charges = await db
    .select({ id: payments.id, refunded: payments.refundedCents })
    .from(payments)
    .where(
      and(
        eq(payments.referenceTable, "service_requests"),
        eq(payments.referenceId, bookingId),
        eq(payments.status, "approved"),
      ),
    )
    .orderBy(desc(payments.id));
  let allVoided = true;
  for (const charge of charges) {
    let outcome = charge.refunded === 0 ? await voidPayment(db, charge.id, { gateway }).catch(() => null) : null;
    if (outcome?.status !== "voided") {
      allVoided = false;
      outcome = await refundPayment(db, charge.id, { gateway }).catch(() => null);
    }
    if (outcome?.status !== "voided" && outcome?.status !== "refunded")
      return { ok: false, allVoided: false, message: outcome?.message };
  }
  return { ok: true, allVoided };
}
