import { formatUsd } from "~/payments/money";
import { servicePrice, type ServicePrice } from "~/booking/service-price";

/**
 * What moving a paid visit to another window costs (DECISIONS 31): the new window is priced by
 * the one price rule (SPEC §9), and the difference with what was paid is charged (dearer, with
 * the card entered again), refunded to the card that paid (cheaper), or nothing (the same).
 * Client-safe: the page shows it as the visitor picks; the server decides with the same code.
 */
export type PriceChange =
  | { ok: true; direction: "same" | "dearer" | "cheaper"; paidCents: number; newCents: number; diffCents: number }
  | Extract<ServicePrice, { ok: false }>;

export function priceChange(
  paidCents: number,
  to: { serviceDate: string; serviceTime: string },
  now = new Date(),
): PriceChange {
  const price = servicePrice(to, now);
  if (!price.ok) return price;
  const diffCents = price.cents - paidCents;
  return {
    ok: true,
    direction: diffCents > 0 ? "dearer" : diffCents < 0 ? "cheaper" : "same",
    paidCents,
    newCents: price.cents,
    diffCents,
  };
}

/** The sentence the page and the mails say of a change's money. */
export function priceChangeText(change: Extract<PriceChange, { ok: true }>): string {
  const diff = formatUsd(Math.abs(change.diffCents));
  if (change.direction === "same")
    return `The new time costs the same (${formatUsd(change.newCents)}): nothing more to pay.`;
  if (change.direction === "dearer")
    return `The new time costs ${formatUsd(change.newCents)}, ${diff} more than you paid: enter your card to pay the difference.`;
  return `The new time costs ${formatUsd(change.newCents)}, ${diff} less than you paid: ${diff} goes back to the card that paid.`;
}
