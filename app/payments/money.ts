/**
 * Integer cents in, integer cents out (client-safe). Floats never hold money:
 * 0.1 + 0.2 is not 0.3, and a price computed in dollars on one side and cents
 * on the other would disagree by a cent sooner or later.
 */

/** Refuses anything but a whole, non-negative, safe number of cents (a programming error). */
export function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${String(cents)}`);
}

/** 25050 → "250.50" (the two-decimal string processors and the SPEC's `total` use). */
export function centsToDecimal(cents: number): string {
  assertCents(cents);
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** 25050 → "$250.50"; 1234500 → "$12,345.00". */
export function formatUsd(cents: number): string {
  const [whole, fraction] = centsToDecimal(cents).split(".");
  return `$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`;
}

/**
 * A typed dollar amount → cents, or null when it is not one: digits with an
 * optional point and at most two decimals (SPEC §5 Invoice), an optional "$"
 * and thousands commas ("$1,250.5" → 125050). No sign, no exponent.
 */
export function parseDollars(input: string): number | null {
  const text = input.trim().replace(/^\$\s*/, "");
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?$/.exec(text);
  if (!match || (match[1] === undefined && !match[2])) return null;
  const whole = (match[1] ?? "0").replaceAll(",", "");
  if (whole.length > 13) return null; // beyond any amount a form takes, and beyond safe integers in cents
  const cents = Number(whole) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}
