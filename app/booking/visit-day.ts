const longDate = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "Saturday, November 28, 2026" for a calendar date (no time zone can shift it). */
export function visitDay(date: string): string {
  return longDate.format(new Date(`${date}T12:00:00Z`));
}
