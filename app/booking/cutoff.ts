import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { SLOT_START_HOUR } from "~/booking/availability";
import type { ServiceTime } from "~/booking/service-price";

/**
 * When a booking can no longer be changed online (DECISIONS 31): `cutoffHours` before its
 * window starts, the window's start read in the company's time zone. Counted in real hours, so
 * across a daylight-saving change 24 hours before 8 AM is 8 AM the day before, or 7 AM / 9 AM
 * by the wall clock on the night the clocks move.
 */
const hourAndDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: COMPANY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

/** The instant a calendar date's hour begins in Detroit (EST is UTC−5, EDT UTC−4). */
export function detroitInstant(date: string, hour: number): Date {
  for (const offset of [4, 5]) {
    const candidate = new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
    candidate.setUTCHours(candidate.getUTCHours() + offset);
    const parts = Object.fromEntries(hourAndDay.formatToParts(candidate).map((p) => [p.type, p.value]));
    if (`${parts.year}-${parts.month}-${parts.day}` === date && Number(parts.hour) === hour) return candidate;
  }
  throw new RangeError(`no ${hour}:00 on ${date} in ${COMPANY_TIME_ZONE}`);
}

export function windowStart(date: string, time: ServiceTime): Date {
  return detroitInstant(date, SLOT_START_HOUR[time]);
}

export function changeDeadline(date: string, time: ServiceTime, cutoffHours: number): Date {
  return new Date(windowStart(date, time).getTime() - cutoffHours * 3_600_000);
}

export function canChangeOnline(date: string, time: ServiceTime, cutoffHours: number, now = new Date()): boolean {
  return now.getTime() < changeDeadline(date, time, cutoffHours).getTime();
}
