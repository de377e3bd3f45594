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

/** When the visitor hears of money not confirmed yet (a charge: the reconciler's next rounds; a refund: the next settlement). */
export const PENDING_WHEN = {
  in: "we will e-mail you when it is, usually within the hour",
  out: "we will e-mail you when it is confirmed, usually within a day",
} as const;

export const MONEY_WORDS = {
  charged: (amount: string, card: string) => `${amount} charged to ${card}`,
  refunded: (amount: string, card: string) => `${amount} refunded to ${card} (it shows within 5–10 business days)`,
  voided: (amount: string) => `the ${amount} charge was cancelled before it was taken (no money left your card)`,
  /** Money not confirmed yet always says its direction and when the visitor will hear. */
  pendingIn: (amount: string, card: string) =>
    `a charge of ${amount} to ${card}, not confirmed yet: ${PENDING_WHEN.in}`,
  pendingOut: (amount: string, card: string) => `a refund of ${amount} to ${card}, on its way: ${PENDING_WHEN.out}`,
  declined: (amount: string, card: string) => `${amount} declined by ${card}'s bank: nothing was charged`,
} as const;

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** "$129.95 charged to Visa ending in 4242", "$69.05 refunded to …", "the $129.95 charge was cancelled …", "a refund of $69.05 …, on its way: …". */
export function moneyWords(line: MoneyWords): string {
  const amount = formatUsd(line.amountCents);
  if (line.state === "pending")
    return line.kind === "charge"
      ? MONEY_WORDS.pendingIn(amount, line.card)
      : MONEY_WORDS.pendingOut(amount, line.card);
  if (line.state === "declined") return MONEY_WORDS.declined(amount, line.card);
  if (line.kind === "void") return MONEY_WORDS.voided(amount);
  if (line.kind === "refund") return MONEY_WORDS.refunded(amount, line.card);
  return MONEY_WORDS.charged(amount, line.card);
}

/** Several lines as one sentence, capitalised: "$69.05 refunded to … (…); a refund of $10.00 …, on its way: …." */
export function moneySentence(lines: readonly MoneyWords[]): string {
  if (lines.length === 0) return "";
  return `${capitalised(lines.map(moneyWords).join("; "))}.`;
}

/** A record's money as the ledger sums it: what stays paid is net less what is on its way back. */
export type MoneySums = {
  /** Charges that succeeded, less voids and refunds that succeeded. */
  netCents: number;
  /** Charges sent and not confirmed. */
  pendingInCents: number;
  /** Voids and refunds requested and not confirmed. */
  pendingOutCents: number;
  card: string;
};

/** What the visitor has paid once what is on its way back has gone back: what a change is compared with. */
export const keptCents = (money: MoneySums) => money.netCents - money.pendingOutCents;

/**
 * The payment line of a booking, an order or an invoice: what stays paid, and each amount not
 * confirmed with its direction and when the visitor will hear ("$159.00 paid with Visa ending in
 * 4242; a refund of $30.00 to Visa ending in 4242, on its way: we will e-mail you …"). The company's
 * copy reads the same figures without the promise of a mail.
 */
export function paidWords(money: MoneySums, audience: "visitor" | "company" = "visitor"): string {
  const kept = keptCents(money);
  const pending = money.pendingOutCents > 0 || money.pendingInCents > 0;
  const parts: string[] = [];
  if (kept > 0 || !pending) parts.push(`${formatUsd(kept)} paid with ${money.card}`);
  if (money.pendingOutCents > 0)
    parts.push(
      audience === "visitor"
        ? MONEY_WORDS.pendingOut(formatUsd(money.pendingOutCents), money.card)
        : `a refund of ${formatUsd(money.pendingOutCents)} on its way, not confirmed yet`,
    );
  if (money.pendingInCents > 0)
    parts.push(
      audience === "visitor"
        ? MONEY_WORDS.pendingIn(formatUsd(money.pendingInCents), money.card)
        : `a charge of ${formatUsd(money.pendingInCents)} not confirmed yet`,
    );
  return `${capitalised(parts.join("; "))}.`;
}

/** "(the $30.00 on its way back to Visa ending in 4242 counted as given back)", or nothing. */
function countedBack(money: MoneySums): string {
  return money.pendingOutCents > 0
    ? ` (the ${formatUsd(money.pendingOutCents)} on its way back to ${money.card} counted as given back)`
    : "";
}

/**
 * What a change of price says before it is made (a visit moved to a dearer or cheaper window):
 * the new price against what the visitor has actually paid, net of money on its way back.
 */
export function changeWords(money: MoneySums, newCents: number): string {
  const kept = keptCents(money);
  const price = formatUsd(newCents);
  const diff = formatUsd(Math.abs(newCents - kept));
  const paid = `you have paid ${formatUsd(kept)}${countedBack(money)}`;
  if (newCents === kept)
    return `The new time costs ${price}, the same as you have paid${countedBack(money)}: nothing more to pay.`;
  if (newCents > kept)
    return `The new time costs ${price}; ${paid}, so ${diff} more: enter your card to pay the difference.`;
  return `The new time costs ${price}; ${paid}, so ${diff} goes back to ${money.card}.`;
}

/** What cancelling says before it is done: all that stays paid goes back, and what was already on its way. */
export function cancelWords(money: MoneySums): string {
  const kept = keptCents(money);
  if (kept <= 0) return "";
  const before =
    money.pendingOutCents > 0
      ? `, with the ${formatUsd(money.pendingOutCents)} already on its way back: ${formatUsd(money.netCents)} in all`
      : "";
  return `What you have paid for this visit, ${formatUsd(kept)}, goes back to ${money.card}${before}.`;
}

/** After a change's own lines: money of earlier changes still on its way back, so the sums add up. */
export function stillOnItsWay(earlierOutCents: number, card: string): string {
  return earlierOutCents > 0
    ? `Also on its way back from an earlier change: ${formatUsd(earlierOutCents)} to ${card}.`
    : "";
}
