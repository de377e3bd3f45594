import { and, desc, eq, sql } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { BOOKING_BUSY_TEXT } from "./policy";
import { env } from "~/lib/env.server";
import { mailCancellation, mailMoneyBack, mailRescheduled } from "~/mail/booking-mail.server";
import { mailPaymentResolved } from "~/mail/payment-resolved.server";
import { company } from "~/lib/company";
import { formatUsd } from "~/payments/money";
import { isServiceTime, priceRule, SERVICE_PRICE_CENTS } from "./service-price";
import { resolveRows } from "~/payments/give-back.server";
import { changeSentence as ledgerSentence, rowsOfChange } from "~/payments/ledger.server";
import type { LedgerRow } from "~/payments/payments.server";
import { bookingRecord } from "~/payments/record";
import type { RecordLedger } from "~/payments/reconcile.server";
import { bookingMailFacts, visitText, type BookingRow } from "./facts.server";
import { isManageToken, managePath, manageTokenHash } from "./reference.server";
import { dropReminder } from "./reminders.server";

/**
 * What a change of a paid booking (a move, a cancel) shares: the booking's row lock, and its finish — the mails that say what moved, in the ledger's words, written
 * once with the ledger rows they resolve, whoever finishes (the request, or the reconciler after
 * the process died: `finishBookingRow`).
 */
export const BOOKING_BUSY = BOOKING_BUSY_TEXT;

/** The residential booking a manage token opens, locked for this transaction (FOR UPDATE), or null. */
export async function lockBookingByToken(tx: Tx, token: string | undefined): Promise<BookingRow | null> {
  if (!isManageToken(token)) return null;
  const [row] = await tx
    .select()
    .from(serviceRequests)
    .where(eq(serviceRequests.manageTokenHash, manageTokenHash(token)))
    .for("update")
    .limit(1);
  return row && row.kind === "residential" && row.totalCents !== null ? row : null;
}

/** The sentence of what a change moved ("$69.05 refunded to Visa ending in 4242 (…)."), from the ledger. */
export async function changeSentence(db: DbOrTx, bookingId: number, keyPrefix: string): Promise<string> {
  return ledgerSentence(db, bookingRecord(bookingId), await rowsOfChange(db, keyPrefix));
}

/**
 * Writes a change's mails, in the words of what its ledger rows moved, in the transaction that
 * resolves those rows: once. Without rows to resolve (none left: finished already), nothing.
 */
export async function finishMoneyChange(
  db: Database,
  bookingId: number,
  keyPrefix: string,
  token?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, bookingId)).for("update");
    if (!row) return;
    const resolved = await resolveRows(tx, keyPrefix);
    if (resolved.length === 0) return;
    await mailChange(tx, row, keyPrefix, token);
  });
}

/** The change's mails (a cancel's or a move's), from its history line and its ledger rows. */
export async function mailChange(tx: Tx, row: BookingRow, keyPrefix: string, token?: string): Promise<void> {
  const [event] = await tx
    .select()
    .from(bookingEvents)
    .where(and(eq(bookingEvents.serviceRequestId, row.id), eq(bookingEvents.changeKey, keyPrefix)))
    .orderBy(desc(bookingEvents.id))
    .limit(1);
  const money = (await changeSentence(tx, row.id, keyPrefix)) || NOTHING_MOVED;
  const manageUrl = token ? `${env().SITE_URL}${managePath(token)}` : undefined;
  if (event?.kind === "cancelled") {
    const facts = await bookingMailFacts(tx, row, "Cancelled.", { manageUrl, changeEventId: event.id });
    await mailCancellation(tx, facts.mail, money);
    return;
  }
  const from = event?.fromDate && event.fromTime ? visitText(event.fromDate, event.fromTime) : "";
  const to = visitText(row.serviceDate, row.serviceTime);
  const facts = await bookingMailFacts(tx, row, `Garage door service visit, ${row.serviceTime}. Moved from ${from}.`, {
    manageUrl,
    changeEventId: event?.id,
  });
  await mailRescheduled(tx, facts.mail, { from, to, money });
}

export const NOTHING_MOVED = "Nothing was charged or refunded: the new time costs the same.";

/**
 * The reconciler's finish for a row of a booking (`bookingLedger` below): a give-back of a change whose mails were never written
 * gets them now; one that completed later than its mails (a refund sent once its charge settled)
 * tells the visitor and the company it went through.
 */
export async function finishBookingRow(tx: Tx, row: LedgerRow, { later }: { later: boolean }): Promise<boolean> {
  if (row.referenceId === null) return false;
  const [booking] = await tx
    .select()
    .from(serviceRequests)
    .where(eq(serviceRequests.id, row.referenceId))
    .for("update");
  if (!booking) return false;
  const [event] = await tx
    .select({ changeKey: bookingEvents.changeKey })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.serviceRequestId, booking.id),
        sql`${bookingEvents.changeKey} is not null`,
        sql`${row.idempotencyKey} like ${bookingEvents.changeKey} || '%'`,
      ),
    )
    .orderBy(desc(bookingEvents.id))
    .limit(1);
  if (!event?.changeKey) return false;
  if (!later) {
    const resolved = await resolveRows(tx, event.changeKey);
    if (resolved.length > 0) await mailChange(tx, booking, event.changeKey);
    return true;
  }
  const facts = await bookingMailFacts(tx, booking, "", {});
  await mailMoneyBack(tx, facts.mail, await ledgerSentence(tx, bookingRecord(booking.id), [row.id]));
  return true;
}

/** A booking stored while its payment's answer was unknown: the processor took it, so it is paid; the visitor is told. */
export async function confirmPendingBooking(tx: Tx, bookingId: number, charge: LedgerRow): Promise<boolean> {
  const [row] = await tx
    .update(serviceRequests)
    .set({ paymentStatus: "paid" })
    .where(and(eq(serviceRequests.id, bookingId), eq(serviceRequests.paymentStatus, "pending")))
    .returning();
  if (!row) return false;
  await tellVisitor(tx, row, charge, "confirmed");
  return true;
}

/** A booking stored while its payment's answer was unknown: nothing was taken, so its place is given back; the visitor is told. */
export async function releasePendingBooking(tx: Tx, bookingId: number, charge: LedgerRow): Promise<boolean> {
  const [released] = await tx
    .update(serviceRequests)
    .set({ bookingStatus: "cancelled" })
    .where(and(eq(serviceRequests.id, bookingId), eq(serviceRequests.paymentStatus, "pending")))
    .returning();
  if (!released) return false;
  await tx.insert(bookingEvents).values({
    serviceRequestId: bookingId,
    kind: "cancelled",
    note: "Released: the card processor has no payment for this booking, so nothing was charged.",
  });
  await dropReminder(tx, bookingId);
  await tellVisitor(tx, released, charge, "released");
  return true;
}

async function tellVisitor(tx: Tx, row: BookingRow, charge: LedgerRow, outcome: "confirmed" | "released") {
  if (!row.email) return;
  const visit = visitText(row.serviceDate, row.serviceTime);
  await mailPaymentResolved(tx, {
    to: row.email,
    name: row.name,
    what: `booking ${row.reference ?? `#${row.id}`}`,
    outcome,
    money:
      outcome === "confirmed"
        ? await ledgerSentence(tx, bookingRecord(row.id), [charge.id])
        : "Nothing was charged to your card.",
    next:
      outcome === "confirmed"
        ? `Your visit on ${visit} is booked and paid.`
        : `Your visit on ${visit} is not booked. Please book again, or call us at ${company.phone.display}.`,
    source: { table: "service_requests", id: row.id },
  });
}

/** What each paid booking should have been paid, net (the payments audit): nothing once cancelled, else its price. */
export async function expectedBookingPayments(db: DbOrTx) {
  const rows = await db
    .select({
      id: serviceRequests.id,
      reference: serviceRequests.reference,
      total: serviceRequests.totalCents,
      status: serviceRequests.bookingStatus,
      date: serviceRequests.serviceDate,
      time: serviceRequests.serviceTime,
      createdAt: serviceRequests.createdAt,
    })
    .from(serviceRequests)
    .where(and(eq(serviceRequests.kind, "residential"), sql`${serviceRequests.paymentId} is not null`));
  return rows.map((r) => {
    // What the booking's own day and window price: a stored total that is not it was paid at another's price.
    const rule = isServiceTime(r.time) ? priceRule(r.date, r.time) : null;
    const priced = rule ? SERVICE_PRICE_CENTS[rule] : null;
    return {
      subject: bookingRecord(r.id),
      label: `booking ${r.reference ?? `#${r.id}`}`,
      expectedCents: r.status === "cancelled" || r.status === "cancellation pending" ? 0 : (r.total ?? 0),
      problems:
        priced !== null && r.total !== priced
          ? [`stored at ${formatUsd(r.total ?? 0)}; its day and window price ${formatUsd(priced)}`]
          : [],
      since: r.createdAt,
    };
  });
}

/** What the ledger's reconciler and audit do with a booking's rows (its move and cancel among them). */
export const bookingLedger: RecordLedger = {
  confirmed: confirmPendingBooking,
  released: releasePendingBooking,
  gaveBack: finishBookingRow,
  expected: expectedBookingPayments,
};
