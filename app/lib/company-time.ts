/**
 * The company's calendar runs on Michigan time (DECISIONS 14), whatever the
 * server's clock zone is (fly.io machines run on UTC).
 */
export const COMPANY_TIME_ZONE = "America/Detroit";

// Made once, on first use: building an Intl.DateTimeFormat costs far more than
// using one (the root loader asks for the year on every page render), and the
// first one with a time zone loads the zone's data, which a page that never asks
// for the date (in the browser: until a card's expiry is checked) need not pay.
let isoDate: Intl.DateTimeFormat | undefined;

/** Today's date in the company's time zone, as YYYY-MM-DD. */
export function todayInDetroit(now = new Date()): string {
  isoDate ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: COMPANY_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return isoDate.format(now);
}

/** The current year in the company's time zone (the footer's copyright line). */
export function yearInDetroit(now = new Date()): number {
  return Number(todayInDetroit(now).slice(0, 4));
}

let clockTime: Intl.DateTimeFormat | undefined;
let dayOfMonth: Intl.DateTimeFormat | undefined;

/**
 * An instant as the company's clock shows it: "9:30 AM on Monday, March 9", or, given `now` on the
 * same Michigan day, "8 AM today" (a mail written for reading at once, such as a reminder).
 */
export function companyClock(at: Date, now?: Date): string {
  clockTime ??= new Intl.DateTimeFormat("en-US", { timeZone: COMPANY_TIME_ZONE, hour: "numeric", minute: "2-digit" });
  dayOfMonth ??= new Intl.DateTimeFormat("en-US", {
    timeZone: COMPANY_TIME_ZONE,
    weekday: "long",
    month: "long",
    day: "numeric",
  });
  const time = clockTime.format(at).replace(":00", "");
  return now && todayInDetroit(at) === todayInDetroit(now) ? `${time} today` : `${time} on ${dayOfMonth.format(at)}`;
}
