import { formatUsd } from "./money";

/**
 * One vocabulary for money, from the ledger (issue 36 item 7): the booking page's payment line,
 * its history, the banners and every mail say what actually moved, in these words and no others.
 * Client-safe.
 */

/** "Visa ending in 4242", or what is known of the card. */
export function cardLabel(brand: string | null | undefined, last4: string | null | undefined): string {
  return brand && last4 ? `${brand} ending in ${last4}` : last4 ? `card ending in ${last4}` : "your card";
}

/** The card as a company copy lists it: the same line, or "—" when the processor named no card. */
export function staffCardLabel(brand: string | null | undefined, last4: string | null | undefined): string {
  return last4 ? cardLabel(brand, last4) : "—";
}

/** One ledger row as the visitor reads it. */
export type MoneyWords = {
  kind: "charge" | "void" | "refund";
  /** pending: sent and not confirmed, or waiting to be sent (a refund waits for the charge to settle). */
  state: "succeeded" | "pending" | "declined";
  amountCents: number;
  card: string;
};

export const MONEY_WORDS = {
  charged: (amount: string, card: string) => `${amount} charged to ${card}`,
  refunded: (amount: string, card: string) => `${amount} refunded to ${card} (it shows within 5–10 business days)`,
  voided: (amount: string) => `the ${amount} charge was cancelled before it was taken (no money left your card)`,
  pending: (amount: string) => `${amount} pending: we will confirm it by e-mail`,
  declined: (amount: string, card: string) => `${amount} declined by ${card}'s bank: nothing was charged`,
} as const;

/** "$129.95 charged to Visa ending in 4242", "$69.05 refunded to …", "the $129.95 charge was cancelled …", "$69.05 pending: …". */
export function moneyWords(line: MoneyWords): string {
  const amount = formatUsd(line.amountCents);
  if (line.state === "pending") return MONEY_WORDS.pending(amount);
  if (line.state === "declined") return MONEY_WORDS.declined(amount, line.card);
  if (line.kind === "void") return MONEY_WORDS.voided(amount);
  if (line.kind === "refund") return MONEY_WORDS.refunded(amount, line.card);
  return MONEY_WORDS.charged(amount, line.card);
}

/** Several lines as one sentence, capitalised: "$69.05 refunded to … (…); $10.00 pending: …." */
export function moneySentence(lines: readonly MoneyWords[]): string {
  if (lines.length === 0) return "";
  const text = lines.map(moneyWords).join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
