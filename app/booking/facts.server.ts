import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import type { BookingMailFacts } from "~/mail/booking-mail.server";
import { moneyOf } from "~/payments/ledger.server";
import { cardLabel, paidWords } from "~/payments/words";
import type { ServiceTime } from "~/booking/service-price";
import { env } from "~/lib/env.server";
import { changeDeadline } from "./cutoff";
import { bookingInvite } from "./invitation.server";
import { changePolicy, WHAT_HAPPENS_NEXT } from "./policy";
import { visitDay } from "./visit-day";
import { bookingRecord } from "~/payments/record";

export type BookingRow = typeof serviceRequests.$inferSelect;

/** "Saturday, November 28, 2026, Morning (8 AM to 11 AM)". */
export const visitText = (date: string, time: string) => `${visitDay(date)}, ${time}`;

/** A move's line in the history ("Moved online from … to …. <money>"), as the booking stores it. */
export const moveNote = (from: Slot, to: Slot, money: string) =>
  `Moved online from ${visitText(from.date, from.time)} to ${visitText(to.date, to.time)}. ${money}`;

/** What the visitor is told of a move, from its line in the history. */
export const moveMessage = (note: string, from: Slot, to: Slot) =>
  `Your visit is moved to ${visitText(to.date, to.time)}. ${note.replace(moveNote(from, to, ""), "")}`.trim();

type Slot = { date: string; time: string };

/** The service address on one line. */
export const addressLine = (row: {
  address1: string;
  address2?: string | null;
  city: string;
  state: string;
  zip: string;
}) => [row.address1, row.address2, `${row.city}, ${row.state} ${row.zip}`].filter(Boolean).join(", ");

/**
 * What every mail about a booking after its payment is built from (cancel, reschedule, reminder):
 * the visitor, the visit as it now stands, the card, and the calendar invitation (./invitation.server.ts,
 * `description` opening its text) with its next SEQUENCE (one per change sent so far: the first
 * invitation is 0).
 */
export async function bookingMailFacts(
  db: DbOrTx,
  row: BookingRow,
  description: string,
  { manageUrl, changeEventId }: { manageUrl?: string; changeEventId?: number } = {},
): Promise<{ card: string; mail: BookingMailFacts }> {
  const money = await moneyOf(db, bookingRecord(row.id));
  // The invitation's SEQUENCE: one per change sent so far. A change whose history line is written
  // already counts up to it; otherwise the change about to be written is the next one.
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookingEvents)
    .where(
      and(
        eq(bookingEvents.serviceRequestId, row.id),
        sql`${bookingEvents.kind} in ('rescheduled', 'cancelled')`,
        ...(changeEventId ? [sql`${bookingEvents.id} <= ${changeEventId}`] : []),
      ),
    );
  const card = cardLabel(money.brand ?? row.cardBrand, money.last4 ?? row.cardLast4);
  const time = row.serviceTime as ServiceTime;
  const visit = visitText(row.serviceDate, time);
  const where = addressLine(row);
  const sequence = changeEventId ? Number(n) : Number(n) + 1;
  const cutoffHours = env().BOOKING_CHANGE_CUTOFF_HOURS;
  return {
    card,
    mail: {
      id: row.id,
      reference: row.reference ?? "",
      name: row.name,
      email: row.email,
      visit,
      rows: [
        { label: "Booking reference", value: row.reference ?? "" },
        { label: "Visit", value: visit },
        { label: "Address", value: where },
        { label: "Paid (from the ledger)", value: paidWords(money, "company") },
        { label: "Card", value: card },
      ],
      invite: bookingInvite(
        {
          id: row.id,
          reference: row.reference ?? "",
          serviceDate: row.serviceDate,
          serviceTime: time,
          address: where,
          manageUrl,
        },
        { lead: description, sequence, cutoffHours },
      ),
      sequence,
      ...(manageUrl ? { manageUrl } : {}),
      deadline: changeDeadline(row.serviceDate, time, cutoffHours),
      policy: { next: WHAT_HAPPENS_NEXT, changing: changePolicy(cutoffHours) },
    },
  };
}
