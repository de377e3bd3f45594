import { and, eq, gt, lte, ne, sql } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { resultRows } from "@db/result-rows";
import { serviceRequests, serviceSlotHolds } from "@db/schema";
import { todayInDetroit } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import type { ServiceTime } from "~/booking/service-price";
import { getDb } from "~/lib/db.server";
import { FormFailure, isDatabaseUnavailable } from "~/forms/pipeline";
import {
  addDays,
  AVAILABILITY_MESSAGES,
  BOOKING_HORIZON_DAYS,
  emptyAvailability,
  slotRefusal,
  slotsBegun,
  type Availability,
} from "./availability";

/**
 * Residential service availability, the server's half (issue 16 item 3).
 *
 * A place in a slot is taken in two steps around the card charge, because the
 * processor call must run outside any transaction (app/payments/payments.server.ts):
 *
 *  1. `holdPlace`, before the charge: under the slot's lock (a transaction-
 *     scoped advisory lock on the date and slot), count the slot's bookings
 *     and live holds; refuse when full, else write a hold keyed by the
 *     payment's idempotency key. Two visitors racing for the last place are
 *     serialised here: the second is refused before their card is touched.
 *  2. `confirmPlace`, in the booking's own transaction: under the same lock,
 *     the hold is turned into the booking (deleted as the booking row is
 *     written). Should the hold have expired meanwhile and its place gone to
 *     someone else, this refuses and the pipeline voids the charge.
 *
 * A declined card releases its hold (`releasePlace`); a process that dies
 * mid-charge leaves a hold that stops counting after HOLD_MINUTES (and is
 * deleted by the next hold on its slot).
 */
const HOLD_MINUTES = 10;

/** Serialises every writer of one slot of one day (PostgreSQL and PGlite alike). */
async function lockSlot(tx: Tx, date: string, time: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`service-slot:${date}:${time}`}))`);
}

/** Places taken in one slot: its bookings and the live holds (other than `exceptKey`'s). */
async function placesTaken(tx: DbOrTx, date: string, time: string, exceptKey?: string): Promise<number> {
  const [bookings] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(serviceRequests)
    .where(
      and(
        eq(serviceRequests.kind, "residential"),
        eq(serviceRequests.serviceDate, date),
        eq(serviceRequests.serviceTime, time),
        // A cancelled booking gives its place back (a cancellation still pending keeps it).
        sql`${serviceRequests.bookingStatus} is distinct from 'cancelled'`,
      ),
    );
  const [holds] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(serviceSlotHolds)
    .where(
      and(
        eq(serviceSlotHolds.serviceDate, date),
        eq(serviceSlotHolds.serviceTime, time),
        gt(serviceSlotHolds.expiresAt, sql`now()`),
        exceptKey ? ne(serviceSlotHolds.key, exceptKey) : undefined,
      ),
    );
  return (bookings?.n ?? 0) + (holds?.n ?? 0);
}

/** What the calendar is given: places taken per day and slot from today to the horizon. */
export async function loadAvailability(db: DbOrTx, now = new Date()): Promise<Availability> {
  const from = todayInDetroit(now);
  const until = addDays(from, BOOKING_HORIZON_DAYS);
  const result = await db.execute(sql`
    select service_date::text as date, service_time as time, count(*)::int as n from (
      select ${serviceRequests.serviceDate} as service_date, ${serviceRequests.serviceTime} as service_time
        from ${serviceRequests}
        where ${serviceRequests.kind} = 'residential' and ${serviceRequests.serviceDate} between ${from} and ${until}
          and ${serviceRequests.bookingStatus} is distinct from 'cancelled'
      union all
      select ${serviceSlotHolds.serviceDate}, ${serviceSlotHolds.serviceTime}
        from ${serviceSlotHolds}
        where ${serviceSlotHolds.expiresAt} > now() and ${serviceSlotHolds.serviceDate} between ${from} and ${until}
    ) taken group by 1, 2`);
  const rows = resultRows<{ date: string; time: string; n: number }>(result);
  const taken: Availability["taken"] = {};
  for (const row of rows) (taken[row.date] ??= {})[row.time as ServiceTime] = Number(row.n);
  return { capacity: env().SERVICE_SLOT_CAPACITY, from, until, closedToday: slotsBegun(now), taken };
}

/** Why this date and slot cannot be booked now (begun, beyond the horizon), before any count. */
function calendarRefusal(date: string, time: ServiceTime, now: Date): string | null {
  const from = todayInDetroit(now);
  const calendar: Availability = {
    capacity: 1,
    from,
    until: addDays(from, BOOKING_HORIZON_DAYS),
    closedToday: slotsBegun(now),
    taken: {},
  };
  return slotRefusal(calendar, date, time);
}

function slotFailure(message: string): FormFailure {
  return new FormFailure(message, { serviceTime: [message] }, 409);
}

/** Step 1 (before the charge): holds a place for `key`, or says why not. */
export async function holdPlace(
  db: Database,
  key: string,
  date: string,
  time: ServiceTime,
  now = new Date(),
): Promise<FormFailure | null> {
  const refusal = calendarRefusal(date, time, now);
  if (refusal) return slotFailure(refusal);
  const capacity = env().SERVICE_SLOT_CAPACITY;
  return db.transaction(async (tx) => {
    // A hold this key made earlier for another slot (a visitor who changed the time after a decline) is given back first.
    await tx
      .delete(serviceSlotHolds)
      .where(
        and(
          eq(serviceSlotHolds.key, key),
          sql`(${serviceSlotHolds.serviceDate}, ${serviceSlotHolds.serviceTime}) <> (${date}::date, ${time})`,
        ),
      );
    await lockSlot(tx, date, time);
    await tx
      .delete(serviceSlotHolds)
      .where(
        and(
          eq(serviceSlotHolds.serviceDate, date),
          eq(serviceSlotHolds.serviceTime, time),
          lte(serviceSlotHolds.expiresAt, sql`now()`),
        ),
      );
    if ((await placesTaken(tx, date, time, key)) >= capacity) return slotFailure(AVAILABILITY_MESSAGES.full);
    const expiresAt = sql`now() + make_interval(mins => ${HOLD_MINUTES})`;
    await tx
      .insert(serviceSlotHolds)
      .values({ key, serviceDate: date, serviceTime: time, expiresAt })
      .onConflictDoUpdate({ target: serviceSlotHolds.key, set: { expiresAt } });
    return null;
  });
}

/** Step 2 (in the booking's transaction): the hold becomes the booking; throws FormFailure when the place is gone. */
export async function confirmPlace(tx: Tx, key: string, date: string, time: ServiceTime): Promise<void> {
  await lockSlot(tx, date, time);
  if ((await placesTaken(tx, date, time, key)) >= env().SERVICE_SLOT_CAPACITY)
    throw slotFailure(AVAILABILITY_MESSAGES.full);
  await tx.delete(serviceSlotHolds).where(eq(serviceSlotHolds.key, key));
}

/** A refused card gives its place back at once. */
export async function releasePlace(db: DbOrTx, key: string): Promise<void> {
  await db.delete(serviceSlotHolds).where(eq(serviceSlotHolds.key, key));
}

/**
 * The page's calendar. With the database down it shows nothing taken rather
 * than failing the page: every booking is still judged under the slot's lock.
 */
export async function residentialAvailability(): Promise<Availability> {
  try {
    return await loadAvailability(await getDb());
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return emptyAvailability(env().SERVICE_SLOT_CAPACITY);
  }
}
