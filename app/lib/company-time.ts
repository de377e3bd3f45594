/**
 * The company's calendar runs on Michigan time (DECISIONS 14), whatever the
 * server's clock zone is (fly.io machines run on UTC).
 */
export const COMPANY_TIME_ZONE = "America/Detroit";

// Made once: building an Intl.DateTimeFormat costs far more than using one
// (made per call, it showed as 5% of the bench server's CPU: the root loader asks
// for the year on every page render).
const isoDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: COMPANY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's date in the company's time zone, as YYYY-MM-DD. */
export function todayInDetroit(now = new Date()): string {
  return isoDate.format(now);
}

/** The current year in the company's time zone (the footer's copyright line). */
export function yearInDetroit(now = new Date()): number {
  return Number(todayInDetroit(now).slice(0, 4));
}
