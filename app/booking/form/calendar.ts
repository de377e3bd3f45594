import dayjs from "dayjs";
import { SERVICE_TIMES } from "~/forms/options";
import { priceRule, SERVICE_PRICE_CENTS, type ServiceTime } from "~/booking/service-price";
import { formatUsd } from "~/payments/money";
import { openSlots, placesLeft, slotRefusal, AVAILABILITY_MESSAGES, type Availability } from "../availability";

/**
 * What the booking form (./Form.tsx) says about a day and its slots, as text:
 * pure and client-safe, from the one price rule (~/booking/service-price.ts)
 * and the availability snapshot (./availability.ts). Dates are Detroit
 * calendar dates (YYYY-MM-DD) and are never read through the browser's time
 * zone: they are formatted as UTC midnights in UTC.
 */

/**
 * "2026-11-28" → "Saturday, November 28" (null when it is not a date).
 *
 * Written by dayjs (the calendar's own date library, @mantine/dates's, so no code is added), not
 * by Intl.DateTimeFormat: the page's first Intl formatter initialises the browser's ICU data, a
 * single task of 60–80 ms at 4× CPU on the booking page, where nothing else asks for Intl
 * (docs/decisions/066). dayjs parses a date-only string as local midnight and formats it in the
 * same zone, so the browser's time zone never shifts the day.
 */
export function formatServiceDay(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const utc = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== date
    ? null
    : dayjs(date).format("dddd, MMMM D");
}

/** "Morning (8 AM to 11 AM)" → "Morning". */
export function slotName(slot: ServiceTime): string {
  return slot.replace(/\s*\(.*$/, "");
}

/**
 * The price of one window of a day as the form shows it, in cents (null for no date): the one
 * price rule without servicePrice's judgement of the past, which asks the clock in Detroit (an
 * Intl formatter, whose first use in a browser starts ICU: 40–70 ms of a click at 4× CPU,
 * docs/decisions/066). The form offers no day before the snapshot's `from` (today, the server's),
 * and the server prices what is booked with servicePrice.
 */
export function slotPrice(date: string, slot: ServiceTime): number | null {
  const rule = priceRule(date, slot);
  return rule === null ? null : SERVICE_PRICE_CENTS[rule];
}

/** The lowest and highest price of a day's windows (all of them unless told which), in cents; null for no date or no window. */
export function dayPriceRange(
  date: string,
  windows: readonly ServiceTime[] = SERVICE_TIMES,
): { low: number; high: number } | null {
  const cents = windows.flatMap((slot) => {
    const price = slotPrice(date, slot);
    return price === null ? [] : [price];
  });
  return cents.length === 0 ? null : { low: Math.min(...cents), high: Math.max(...cents) };
}

/**
 * What the calendar shows under a day: its windows' lowest and highest price ("$129.95–$159.95"
 * on a weekday, whose evening costs more), one price when they all cost the same ("$159.00" on a
 * Saturday, "$199.00" on a Sunday or a holiday). The calendar passes the windows still open.
 */
export function dayPrice(date: string, windows: readonly ServiceTime[] = SERVICE_TIMES): string | null {
  const range = dayPriceRange(date, windows);
  if (range === null) return null;
  return range.low === range.high ? formatUsd(range.low) : `${formatUsd(range.low)}–${formatUsd(range.high)}`;
}

/** The same for a screen reader, which may skip a dash: "$129.95 to $159.95". */
export function dayPriceLabel(date: string, windows: readonly ServiceTime[] = SERVICE_TIMES): string | null {
  const range = dayPriceRange(date, windows);
  if (range === null) return null;
  return range.low === range.high ? formatUsd(range.low) : `${formatUsd(range.low)} to ${formatUsd(range.high)}`;
}

/** "1 place left", "3 places left". */
export function placesText(places: number): string {
  return `${places} ${places === 1 ? "place" : "places"} left`;
}

/** A slot of a day as the form offers it: bookable with its places, or why not ("Full", "Started"). */
export function slotStatus(a: Availability, date: string, slot: ServiceTime): { open: boolean; text: string } {
  const places = placesLeft(a, date, slot);
  if (places > 0) return { open: true, text: placesText(places) };
  return { open: false, text: slotRefusal(a, date, slot) === AVAILABILITY_MESSAGES.begun ? "Started" : "Full" };
}

/**
 * The free slots of a day in a sentence ("Free on Saturday, November 28:
 * Morning, Afternoon."), or why there are none; null for a date that is not
 * one or is before the first bookable day (the date's own error says why).
 */
export function freeSlotsText(a: Availability, date: string): string | null {
  const day = formatServiceDay(date);
  if (day === null || date < a.from) return null;
  if (date > a.until) return AVAILABILITY_MESSAGES.horizon;
  const open = openSlots(a, date);
  return open.length === 0 ? "No places left on this day." : `Free on ${day}: ${open.map(slotName).join(", ")}.`;
}
