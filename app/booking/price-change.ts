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
