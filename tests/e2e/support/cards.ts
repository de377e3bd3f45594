/**
 * The one list of card numbers and CVCs the end-to-end tests type. Every spec
 * takes its cards from here, so the audit that runs after the whole suite
 * (tests/e2e/audit) knows exactly what must never appear in the database or
 * the server's log: a number typed from anywhere else would go unchecked.
 *
 * The sandbox gateway (app/payments/sandbox.server.ts) decides by number:
 * 4242… approves, 4000 0000 0000 0002 is declined, 4000 0000 0000 0119 has an
 * unknown outcome (as a processor timeout); any other valid number approves.
 */
export const TEST_CARDS = {
  approve: "4242 4242 4242 4242",
  decline: "4000 0000 0000 0002",
  unknown: "4000 0000 0000 0119",
  /** Another brand that approves (any valid number does). */
  mastercard: "5555 5555 5555 4444",
  /** American Express: 15 digits, grouped 4-6-5 on the card, and a 4-digit CVC. */
  amex: "3782 822463 10005",
  /** 4242… with its last digit changed: fails the Luhn check. */
  badLuhn: "4242 4242 4242 4241",
} as const;

/**
 * CVC lengths follow card-validator (app/payments/card.ts): 4 digits for
 * American Express, 3 for the others. The values are chosen to be searched
 * for without false hits: above 599, so never an HTTP status or an IPv4
 * octet; the 3-digit one has a middle 9, so it is never a US area code (N9X
 * codes are reserved); neither is a year, a port or any other number the
 * suite types.
 */
export const TEST_CVCS = {
  /** Visa, Mastercard, Discover… */
  three: "795",
  amex: "7391",
} as const;

/** A card number as a visitor may type it: digits only, in fours with spaces, in fours with dashes. */
export function cardNumberForms(number: string): { digits: string; spaced: string; dashed: string } {
  const digits = number.replace(/\D/g, "");
  const fours = digits.match(/.{1,4}/g)!;
  return { digits, spaced: fours.join(" "), dashed: fours.join("-") };
}

/**
 * Finds a card number in a text whatever its grouping: its digits with at most
 * one separator between any two of them (a space, a dash, a dot, or a form
 * encoding's "+" or "%20"), so "4242424242424242", "4242 4242 4242 4242",
 * "4242-4242-4242-4242" and Amex's "3782 822463 10005" all match.
 */
export function cardNumberPattern(number: string): RegExp {
  const digits = cardNumberForms(number).digits;
  return new RegExp(digits.split("").join("(?:[\\s.+-]|%20)?"));
}
