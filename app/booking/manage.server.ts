import { asc, eq } from "drizzle-orm";
import type { Database, DbOrTx } from "@db/client.server";
import { bookingEvents, serviceRequests, type BookingStatus } from "@db/schema";
import { moneyOf, type MoneyOf } from "~/payments/ledger.server";
import { moneyWords, paidWords, type MoneySums } from "~/payments/words";
import { formatUsd } from "~/payments/money";
import { RESIDENTIAL_PENDING, RESIDENTIAL_SUCCESS } from "~/booking/form/identity";
import { serviceReceiptLine } from "~/booking/form/receipt.server";
import { cardLabel } from "~/payments/words";
import { serviceLabels } from "~/forms/service/schema";
import { env } from "~/lib/env.server";
import type { ServiceTime } from "~/booking/service-price";
import { canChangeOnline } from "./cutoff";
import { lastMoveByToken } from "./reschedule.server";
import { isManageToken, manageTokenHash } from "./reference.server";
import { bookingRecord } from "~/payments/record";

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
  /** What moved, from the ledger, oldest first: "Nov 28, 2026: $129.95 charged to Visa ending in 4242". */
  payments: { at: string; text: string }[];
  /** What the booking has been paid, net, from the ledger ("$129.95 paid with Visa ending in 4242"; pending said). */
  paidLine: string;
  /** The ledger's sums: what a move is compared with and a cancel gives back (words.ts says them). */
  money: MoneySums;
  /** A payment of this booking is still being confirmed: it cannot be changed (nor paid again) until it is. */
  paymentChecking: boolean;
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
    .select({ booking: serviceRequests })
    .from(serviceRequests)
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
  const money = await moneyOf(db, bookingRecord(b.id));
  return {
    canChange:
      (status === "booked" || status === "rescheduled") &&
      b.paymentStatus === "paid" &&
      !money.openCharge &&
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
    card: cardLabel(money.brand ?? b.cardBrand, money.last4 ?? b.cardLast4),
    brand: money.brand ?? b.cardBrand,
    last4: money.last4 ?? b.cardLast4,
    payments: paymentLines(money),
    paidLine: paidWords(money),
    money: {
      netCents: money.netCents,
      pendingInCents: money.pendingInCents,
      pendingOutCents: money.pendingOutCents,
      card: money.card,
    },
    paymentChecking: money.openCharge,
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
        // SPEC's words, then what they mean here: the page is the booking's, not a form's answer.
        title: `${RESIDENTIAL_SUCCESS} Your visit is booked and paid.`,
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

/** What the page says after a move (/booking/{token}?moved): the last move, and what moved, from the ledger. */
export const lastMoveNote = (db: Database, token: string | undefined) => lastMoveByToken(db, token);

/** Every ledger line of the booking in the ledger's words. */
function paymentLines(money: MoneyOf): { at: string; text: string }[] {
  return money.lines.map((line) => {
    const text = moneyWords(line);
    return { at: line.at.toISOString(), text: `${text.charAt(0).toUpperCase()}${text.slice(1)}.` };
  });
}
