import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { bookingEvents, payments, serviceRequests, type BookingStatus } from "@db/schema";
import { formatUsd } from "~/payments/money";
import { RESIDENTIAL_PENDING, RESIDENTIAL_SUCCESS } from "~/forms/residential/identity";
import { serviceReceiptLine } from "~/forms/residential/receipt.server";
import { cardLabel } from "~/payments/receipt.server";
import { serviceLabels } from "~/forms/service/schema";
import { env } from "~/lib/env.server";
import type { ServiceTime } from "~/payments/service-price";
import { canChangeOnline } from "./cutoff";
import { moveMessage } from "./facts.server";
import { isManageToken, manageTokenHash } from "./reference.server";

/** What the manage page (/booking/{token}) shows of one booking. */
export type ManagedBooking = {
  /** Whether the visitor may still cancel online (before the cut-off, paid, not cancelled). */
  canChange: boolean;
  brand: string | null;
  last4: string | null;
  reference: string;
  status: BookingStatus;
  serviceDate: string;
  serviceTime: string;
  name: string;
  address: string[];
  amount: string;
  /** What the visit costs now (what was paid, after any move). */
  totalCents: number;
  card: string;
  /** What the visitor told us when booking (the receipt's "Your details"). */
  details: { label: string; value: string }[];
  paid: boolean;
  history: {
    at: string;
    kind: string;
    note: string | null;
    from: { date: string; time: string } | null;
    to: { date: string; time: string } | null;
  }[];
};

/** The booking a manage token opens, or null (unknown, malformed, or not a residential booking). */
export async function findBookingByToken(db: DbOrTx, token: string | undefined): Promise<ManagedBooking | null> {
  if (!isManageToken(token)) return null;
  const [row] = await db
    .select({ booking: serviceRequests, brand: payments.brand, last4: payments.last4 })
    .from(serviceRequests)
    .leftJoin(payments, eq(payments.id, serviceRequests.paymentId))
    .where(eq(serviceRequests.manageTokenHash, manageTokenHash(token)))
    .limit(1);
  const b = row?.booking;
  if (!b || b.kind !== "residential" || !b.reference || b.totalCents === null) return null;
  const history = await db
    .select({
      at: bookingEvents.createdAt,
      kind: bookingEvents.kind,
      note: bookingEvents.note,
      fromDate: bookingEvents.fromDate,
      fromTime: bookingEvents.fromTime,
      toDate: bookingEvents.toDate,
      toTime: bookingEvents.toTime,
    })
    .from(bookingEvents)
    .where(eq(bookingEvents.serviceRequestId, b.id))
    .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
  const status = b.bookingStatus ?? "booked";
  return {
    canChange:
      (status === "booked" || status === "rescheduled") &&
      b.paymentStatus === "paid" &&
      canChangeOnline(b.serviceDate, b.serviceTime as ServiceTime, env().BOOKING_CHANGE_CUTOFF_HOURS),
    reference: b.reference,
    status,
    serviceDate: b.serviceDate,
    serviceTime: b.serviceTime,
    name: b.name,
    address: [b.address1, b.address2, `${b.city}, ${b.state} ${b.zip}`].filter((line): line is string => Boolean(line)),
    amount: formatUsd(b.totalCents),
    totalCents: b.totalCents,
    details: [
      { label: serviceLabels.name, value: b.name },
      { label: serviceLabels.phone, value: b.phone },
      { label: serviceLabels.email, value: b.email },
      { label: serviceLabels.contactMethod, value: b.contactMethod ?? "" },
      { label: serviceLabels.description, value: b.description ?? "" },
    ].filter((row) => row.value),
    card: cardLabel(row.brand ?? b.cardBrand, row.last4 ?? b.cardLast4),
    brand: row.brand ?? b.cardBrand,
    last4: row.last4 ?? b.cardLast4,
    paid: b.paymentStatus === "paid",
    history: history.map((h) => ({
      at: h.at.toISOString(),
      kind: h.kind,
      note: h.note,
      from: h.fromDate && h.fromTime ? { date: h.fromDate, time: h.fromTime } : null,
      to: h.toDate && h.toTime ? { date: h.toDate, time: h.toTime } : null,
    })),
  };
}

/** What the page says right after the booking was paid: SPEC's success text and the receipt line, or that it is being checked. */
export function bookingReceipt(b: ManagedBooking): { pending: boolean; title: string; line: string } {
  return b.paid
    ? {
        pending: false,
        title: RESIDENTIAL_SUCCESS,
        line: serviceReceiptLine({
          amount: b.amount,
          brand: b.brand,
          last4: b.last4,
          serviceDate: b.serviceDate,
          serviceTime: b.serviceTime,
        }),
      }
    : { pending: true, title: RESIDENTIAL_PENDING, line: "" };
}

/** What the page says after a move (/booking/{token}?moved): the last move, and its money line. */
export function lastMoveNote(b: ManagedBooking): string | null {
  const move = b.history.findLast((event) => event.kind === "rescheduled" && event.from && event.to);
  if (!move?.note || !move.from || !move.to) return null;
  return moveMessage(move.note, move.from, move.to);
}
