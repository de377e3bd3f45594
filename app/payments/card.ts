import cardValidator from "card-validator";
import { todayInDetroit } from "~/lib/company-time";
import { PAYMENT_MESSAGES, type CardInput, type ChargeRequest, type ChargeResult } from "./gateway";
import { assertCents } from "./money";

/**
 * The card checks both sides run (client-safe): the browser for early
 * messages, the server (every gateway adapter, before anything is sent) to
 * decide. Brand, Luhn and length come from `card-validator`; so does the CVC
 * length per brand (4 digits for American Express, 3 for the others).
 *
 * Expiry: a card is good through the last day of its expiry month in the
 * company's time zone (America/Detroit). card-validator's own verdict is not
 * used for that: it reads the process's clock in the process's zone (UTC on
 * the servers) and cannot be given `now`, so on the evening of the last day
 * of a month in Michigan it already calls the card expired.
 *
 * Nothing here keeps, logs or returns the number: only the brand and the last
 * four digits leave.
 */

/**
 * The longest card number taken: Authorize.net's cardNumber holds at most 16 digits, so a longer
 * one (some Visa, Discover, JCB and UnionPay cards have up to 19) is refused here, never sent.
 */
export const MAX_CARD_DIGITS = 16;

export const CARD_MESSAGES = {
  number: "Enter a valid card number.",
  numberLength: "Enter a card number of at most 16 digits.",
  expiry: "Enter a valid expiry date (MM/YY).",
  expired: "This card has expired.",
  cvc: "Enter the card's security code (CVC).",
  holder: "Enter the cardholder's name.",
} as const;

export type CardField = "number" | "expiry" | "cvc" | "holder";

export type CardCheck =
  | { ok: true; brand: string; last4: string; expMonth: number; expYear: number }
  | { ok: false; errors: Partial<Record<CardField, string>>; brand?: string };

/** Display names, one per brand, whatever names a processor uses. */
const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  "american-express": "American Express",
  discover: "Discover",
  jcb: "JCB",
  "diners-club": "Diners Club",
  unionpay: "UnionPay",
  maestro: "Maestro",
  mir: "Mir",
  elo: "Elo",
  hiper: "Hiper",
  hipercard: "Hipercard",
};

export function brandName(type: string): string {
  return BRAND_NAMES[type] ?? type;
}

/** "4242 4242-4242 4242" → "4242424242424242"; anything else than digits, spaces and dashes → null. */
export function cardDigits(number: string): string | null {
  const digits = number.replace(/[\s-]/g, "");
  return /^\d{1,19}$/.test(digits) ? digits : null;
}

/**
 * Card-number checks alone (the field's live feedback): brand when known, valid when Luhn and
 * length pass and it has at most MAX_CARD_DIGITS digits; `message` says why it is not valid.
 */
export function checkCardNumber(number: string): {
  valid: boolean;
  brand?: string;
  cvcLength?: number;
  message?: string;
} {
  const digits = cardDigits(number);
  if (!digits) {
    const tooLong = /^\d+$/.test(number.replace(/[\s-]/g, ""));
    return { valid: false, message: tooLong ? CARD_MESSAGES.numberLength : CARD_MESSAGES.number };
  }
  const result = cardValidator.number(digits, { luhnValidateUnionPay: true });
  const brand = result.card ? brandName(result.card.type) : undefined;
  const cvcLength = result.card?.code.size;
  // Said before Luhn: a longer card cannot be charged here whatever its digits.
  if (digits.length > MAX_CARD_DIGITS) return { valid: false, brand, cvcLength, message: CARD_MESSAGES.numberLength };
  if (!result.isValid) return { valid: false, brand, cvcLength, message: CARD_MESSAGES.number };
  return { valid: true, brand, cvcLength };
}

/**
 * The expiry as a person types it in one field, split into its month and year as typed:
 * "12/29", "12 / 2029", "12/2029", "12-29", "1/29", and the digits alone, "1229" (MMYY),
 * "122029" (MMYYYY) or "129" (MYY: the year has two digits, so the month is the first one).
 * Null when it is none of these. Whether they are a month and a year is parseExpiry's to say.
 */
export function splitExpiry(text: string): { month: string; year: string } | null {
  const typed = text.trim();
  const parts =
    /^(\d{1,2})\s*[/.\s-]\s*(\d{2}|\d{4})$/.exec(typed) ??
    /^(\d{2})(\d{2}|\d{4})$/.exec(typed) ??
    /^(\d)(\d{2})$/.exec(typed);
  return parts ? { month: parts[1]!, year: parts[2]! } : null;
}

/**
 * The expiry of a card from the fields a form posts: SPEC §3's month and year
 * (cardExpMonth "12", cardExpYear "29"), or one MM/YY field in the month's
 * place with no year (what the pages send: one input, typed as the card shows
 * it). What cannot be split is passed on as it is, for checkExpiry to refuse.
 */
export function expiryFields(month: string | undefined, year: string | undefined): { month: string; year: string } {
  const m = (month ?? "").trim();
  const y = (year ?? "").trim();
  if (y) return { month: m, year: y };
  return splitExpiry(m) ?? { month: m, year: "" };
}

/** Month and year as numbers (a two-digit year is 20YY), or null when they are not a month and a year. */
export function parseExpiry(month: number | string, year: number | string): { month: number; year: number } | null {
  const m = String(month).trim();
  const y = String(year).trim();
  if (!/^\d{1,2}$/.test(m) || !/^(\d{2}|\d{4})$/.test(y)) return null;
  if (!cardValidator.expirationMonth(m.padStart(2, "0")).isPotentiallyValid) return null;
  const monthNumber = Number(m);
  if (monthNumber < 1 || monthNumber > 12) return null;
  return { month: monthNumber, year: y.length === 2 ? 2000 + Number(y) : Number(y) };
}

/** Cards are issued for at most this many years ahead (card-validator's own window). */
const MAX_YEARS_AHEAD = 19;

export function checkExpiry(month: number | string, year: number | string, now = new Date()): string | undefined {
  const expiry = parseExpiry(month, year);
  if (!expiry) return CARD_MESSAGES.expiry;
  const [thisYear, thisMonth] = todayInDetroit(now).split("-").map(Number) as [number, number];
  if (expiry.year * 12 + expiry.month < thisYear * 12 + thisMonth) return CARD_MESSAGES.expired;
  if (expiry.year > thisYear + MAX_YEARS_AHEAD) return CARD_MESSAGES.expiry;
  return undefined;
}

/** Every check on a card, as field errors; `now` decides what "expired" means (America/Detroit). */
export function checkCard(card: CardInput, now = new Date()): CardCheck {
  const errors: Partial<Record<CardField, string>> = {};
  const number = checkCardNumber(card.number);
  if (!number.valid) errors.number = number.message ?? CARD_MESSAGES.number;

  const expiryError = checkExpiry(card.expMonth, card.expYear, now);
  if (expiryError) errors.expiry = expiryError;

  // The brand's length when the brand is known; 3 or 4 digits otherwise.
  const cvc = card.cvc.trim();
  const cvcOk = number.cvcLength
    ? cardValidator.cvv(cvc, number.cvcLength).isValid
    : cardValidator.cvv(cvc, [3, 4]).isValid;
  if (!cvcOk) errors.cvc = CARD_MESSAGES.cvc;

  if (card.holder.trim().length < 2 || card.holder.trim().length > 100) errors.holder = CARD_MESSAGES.holder;

  if (Object.keys(errors).length > 0 || !number.brand) return { ok: false, errors, brand: number.brand };
  const digits = cardDigits(card.number)!;
  const expiry = parseExpiry(card.expMonth, card.expYear)!;
  return { ok: true, brand: number.brand, last4: digits.slice(-4), expMonth: expiry.month, expYear: expiry.year };
}

/**
 * What every gateway does before it contacts anyone: an amount that is not
 * whole positive cents throws (a bug), and a card that fails the checks is
 * declined with the first failing field's message, in the order a visitor
 * reads the form (the processor would refuse it too, and may charge a fee
 * per attempt). Otherwise the checked card (brand, last four, expiry).
 */
export function checkCharge(
  request: ChargeRequest,
  now: Date,
): { refused: ChargeResult } | { card: Extract<CardCheck, { ok: true }> } {
  assertCents(request.amountCents);
  if (request.amountCents === 0) throw new RangeError("a charge of 0 cents");
  const check = checkCard(request.card, now);
  if (check.ok) return { card: check };
  const message =
    check.errors.number ?? check.errors.expiry ?? check.errors.cvc ?? check.errors.holder ?? PAYMENT_MESSAGES.declined;
  return { refused: { status: "declined", reason: "invalid", message } };
}
