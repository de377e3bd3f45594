import { todayInDetroit } from "~/lib/company-time";
import { SERVICE_TIMES } from "~/forms/options";

/**
 * The residential service price (SPEC §9, DECISIONS 12–14), written once:
 * the browser imports it to show the price, the server to charge it (the
 * posted `total` is never read). Pure and client-safe; amounts in cents.
 *
 * Rules, first match wins — SPEC §9 lists them in this order and ends with
 * "otherwise", i.e. an if/else chain, which is how the original site priced:
 *   1. 1 January, 4 July or 25 December (any year; the date itself, no
 *      observed Friday/Monday), or a Sunday ........................ 199.00
 *   2. a Saturday ...................................................... 159.00
 *   3. the 'Evening (After 4 PM)' slot ................................. 159.95
 *   4. otherwise ........................................................ 129.95
 * So an evening on a Sunday or a holiday is 199.00, and an evening on a
 * Saturday is 159.00 (the Saturday rate, not the weekday evening rate: the
 * SPEC's order says so, though 159.95 would be the higher of the two).
 *
 * The date is a calendar date in America/Detroit (YYYY-MM-DD, as a date input
 * sends it): its weekday does not depend on any clock. "Past" does: a date
 * before today *in Detroit* is refused, so at 23:30 in Michigan (already
 * tomorrow in UTC) today can still be booked. Whether a slot of today has
 * already begun is the booking's concern, not the price's.
 */

export const SERVICE_PRICE_CENTS = {
  holiday: 199_00,
  sunday: 199_00,
  saturday: 159_00,
  evening: 159_95,
  standard: 129_95,
} as const;

export type ServicePriceRule = keyof typeof SERVICE_PRICE_CENTS;
export type ServiceTime = (typeof SERVICE_TIMES)[number];

export const EVENING_SLOT: ServiceTime = "Evening (After 4 PM)";

export const SERVICE_PRICE_MESSAGES = {
  date: "Choose a valid service date.",
  past: "Choose a service date from today on.",
  time: "Choose a service time.",
} as const;

export type ServicePrice =
  | { ok: true; cents: number; rule: ServicePriceRule }
  | { ok: false; field: "serviceDate" | "serviceTime"; reason: keyof typeof SERVICE_PRICE_MESSAGES; message: string };

/** Weekday of a calendar date (0 = Sunday), or null when the text is not a real YYYY-MM-DD date. */
export function weekdayOf(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2026-02-30 over to 2 March: a real date reads back the same.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return null;
  return utc.getUTCDay();
}

/** 1 January, 4 July, 25 December of any year (DECISIONS 14). */
export function isServiceHoliday(date: string): boolean {
  const monthDay = date.slice(5);
  return monthDay === "01-01" || monthDay === "07-04" || monthDay === "12-25";
}

export function isServiceTime(value: string): value is ServiceTime {
  return (SERVICE_TIMES as readonly string[]).includes(value);
}

/**
 * The day's rule without a slot (what a calendar shows on each day): the
 * weekday price is 129.95 with 159.95 for the evening slot.
 */
export function dayRule(date: string): Exclude<ServicePriceRule, "evening"> | null {
  const weekday = weekdayOf(date);
  if (weekday === null) return null;
  if (isServiceHoliday(date)) return "holiday";
  if (weekday === 0) return "sunday";
  if (weekday === 6) return "saturday";
  return "standard";
}

/** The rule and price for a date and slot, with no judgement of the date's past. */
export function priceRule(date: string, time: ServiceTime): ServicePriceRule | null {
  const rule = dayRule(date);
  if (rule === null) return null;
  return rule === "standard" && time === EVENING_SLOT ? "evening" : rule;
}

/**
 * The price to charge for a visit, or why there is none: a date that is not a
 * date, a date before today in Detroit, a slot that is not one of SPEC §9's.
 * `now` is explicit for tests (and for the server to judge one request at one instant).
 */
export function servicePrice(input: { serviceDate: string; serviceTime: string }, now = new Date()): ServicePrice {
  const date = input.serviceDate.trim();
  if (weekdayOf(date) === null) return refuse("serviceDate", "date");
  if (date < todayInDetroit(now)) return refuse("serviceDate", "past");
  if (!isServiceTime(input.serviceTime)) return refuse("serviceTime", "time");
  const rule = priceRule(date, input.serviceTime)!;
  return { ok: true, cents: SERVICE_PRICE_CENTS[rule], rule };
}

function refuse(field: "serviceDate" | "serviceTime", reason: keyof typeof SERVICE_PRICE_MESSAGES): ServicePrice {
  return { ok: false, field, reason, message: SERVICE_PRICE_MESSAGES[reason] };
}
