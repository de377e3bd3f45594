import { COMPANY_TIME_ZONE, todayInDetroit } from "~/lib/company-time";
import { SERVICE_TIMES } from "~/forms/options";
import type { ServiceTime } from "~/booking/service-price";

/**
 * Residential service availability (issue 16 item 3), the client-safe half:
 * what the calendar is given and the questions both sides ask of it. The
 * server's half (./availability.server.ts) reads it from the database and
 * holds a place under the slot's lock; this module only reads the snapshot.
 *
 * Each slot of each day takes SERVICE_SLOT_CAPACITY bookings. A slot of today
 * closes once it has begun in Detroit (nobody can be sent for 8 AM at 9 AM).
 * Bookings are taken up to BOOKING_HORIZON_DAYS ahead, as booking tools do:
 * the calendar has an end, and the company's schedule is not promised for
 * next year.
 */
export const BOOKING_HORIZON_DAYS = 120;

/** When each slot begins, in Detroit wall-clock hours (SPEC §9's slot names). */
export const SLOT_START_HOUR: Record<ServiceTime, number> = {
  "Morning (8 AM to 11 AM)": 8,
  "Afternoon (11 AM to 2 PM)": 11,
  "Late Afternoon (2 PM to 4 PM)": 14,
  "Evening (After 4 PM)": 16,
};

/** How long a visit is planned for (the calendar invitation's length). */
export const SLOT_LENGTH_MINUTES: Record<ServiceTime, number> = {
  "Morning (8 AM to 11 AM)": 180,
  "Afternoon (11 AM to 2 PM)": 180,
  "Late Afternoon (2 PM to 4 PM)": 120,
  "Evening (After 4 PM)": 180,
};

export type Availability = {
  capacity: number;
  /** Today in Detroit: the first bookable day. */
  from: string;
  /** The last bookable day. */
  until: string;
  /** Today's slots that have already begun. */
  closedToday: ServiceTime[];
  /** Places taken (bookings and live holds) per date and slot; absent = none. */
  taken: Record<string, Partial<Record<ServiceTime, number>>>;
};

export const AVAILABILITY_MESSAGES = {
  full: "This time slot is fully booked. Please choose another time or day.",
  begun: "This time slot has already begun today. Please choose a later time or another day.",
  horizon: `We take online bookings up to ${BOOKING_HORIZON_DAYS} days ahead. Please choose an earlier date, or call us.`,
  /** A day, not a window: the date's error when none of its windows can be booked. */
  dayBegun: "No times are left to book today: every window has begun. Please choose another day.",
  dayFull: "No times are left on this day: every window is fully booked. Please choose another day.",
} as const;

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

// Made on first use, as in ~/lib/company-time.ts: the first formatter with a time zone loads the
// zone's data (about 10 ms of a phone's main thread), which the browser never needs here (the
// snapshot's `closedToday` is the server's), and this module loads with the booking form.
let hourInDetroit: Intl.DateTimeFormat | undefined;

/** Today's slots that have begun at `now` (Detroit time). */
export function slotsBegun(now = new Date()): ServiceTime[] {
  hourInDetroit ??= new Intl.DateTimeFormat("en-US", {
    timeZone: COMPANY_TIME_ZONE,
    hour: "numeric",
    hourCycle: "h23",
  });
  const hour = Number(hourInDetroit.format(now));
  return SERVICE_TIMES.filter((slot) => SLOT_START_HOUR[slot] <= hour);
}

/** Places left in one slot of one day (0 for a day outside the bookable range or a begun slot). */
export function placesLeft(a: Availability, date: string, time: ServiceTime): number {
  if (date < a.from || date > a.until) return 0;
  if (date === a.from && a.closedToday.includes(time)) return 0;
  return Math.max(0, a.capacity - (a.taken[date]?.[time] ?? 0));
}

/** The day's slots that can still be booked, in SPEC §9's order. */
export function openSlots(a: Availability, date: string): ServiceTime[] {
  return SERVICE_TIMES.filter((slot) => placesLeft(a, date, slot) > 0);
}

/**
 * What the calendar says of a day: outside the bookable range; today with every slot begun
 * (nothing is full, the day is over for booking); every slot full or begun; or bookable.
 */
export function dayState(a: Availability, date: string): "out" | "started" | "full" | "open" {
  if (date < a.from || date > a.until) return "out";
  if (openSlots(a, date).length > 0) return "open";
  return date === a.from && SERVICE_TIMES.every((slot) => a.closedToday.includes(slot)) ? "started" : "full";
}

/** Why no window of a bookable day can be booked (all begun, or all full or begun), or null when one can. */
export function dayRefusal(a: Availability, date: string): string | null {
  const state = dayState(a, date);
  if (state === "started") return AVAILABILITY_MESSAGES.dayBegun;
  return state === "full" ? AVAILABILITY_MESSAGES.dayFull : null;
}

/** Whether `date` is today in Detroit and every window of it has begun at `now` (from 4 PM on). */
export function allWindowsBegun(date: string, now = new Date()): boolean {
  return date === todayInDetroit(now) && slotsBegun(now).length === SERVICE_TIMES.length;
}

/** Why a slot cannot be booked, or null when it can. */
export function slotRefusal(a: Availability, date: string, time: ServiceTime): string | null {
  if (date > a.until) return AVAILABILITY_MESSAGES.horizon;
  if (date === a.from && a.closedToday.includes(time)) return AVAILABILITY_MESSAGES.begun;
  return placesLeft(a, date, time) > 0 ? null : AVAILABILITY_MESSAGES.full;
}

/** A snapshot with nothing taken (tests, and the calendar's first paint before data). */
export function emptyAvailability(capacity: number, now = new Date()): Availability {
  const from = todayInDetroit(now);
  return { capacity, from, until: addDays(from, BOOKING_HORIZON_DAYS), closedToday: slotsBegun(now), taken: {} };
}
