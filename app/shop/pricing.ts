import { formatUsd, parseDollars } from "~/payments/money";
import type { CustomField } from "@db/schema/shop";

/**
 * A product's price with its chosen options (SPEC §4 Product detail: base plus
 * the sum of the chosen options' prices), written once: the product page
 * imports it to show the price, the cart on the server to recompute it
 * (DECISIONS 12: a posted `final_price` is never read). Pure and client-safe;
 * amounts in cents.
 *
 * A field left without a choice takes its first option (SPEC §3: the first
 * option is preselected); a label that is not one of the field's options, or a
 * choice for a field the product does not have, is refused.
 */

export type ChosenOption = { name: string; label: string; priceCents: number };

export type PriceWithOptions =
  { ok: true; cents: number; options: ChosenOption[] } | { ok: false; field: string; message: string };

export type PricedProduct = { priceCents: number; customFields: CustomField[] };

/**
 * An option's add-on in cents. The catalogue keeps option prices in dollars
 * (SPEC §7's JSON shape); they go through the one dollar parser, so 12.1 is
 * 1210 cents, never 1209.9999. Null for a negative or sub-cent amount.
 */
export function optionCents(price: number): number | null {
  if (!Number.isFinite(price) || price < 0) return null;
  return parseDollars(String(price));
}

export function priceWithOptions(
  product: PricedProduct,
  selected: Record<string, string> | undefined,
): PriceWithOptions {
  const chosen = selected ?? {};
  for (const name of Object.keys(chosen)) {
    if (!product.customFields.some((f) => f.name === name)) {
      return { ok: false, field: name, message: `This product has no option "${name}".` };
    }
  }
  let cents = product.priceCents;
  const options: ChosenOption[] = [];
  for (const field of product.customFields) {
    const label = Object.hasOwn(chosen, field.name) ? chosen[field.name] : undefined;
    const option = label === undefined ? field.options[0] : field.options.find((o) => o.label === label);
    if (!option) {
      return { ok: false, field: field.name, message: `Choose one of the listed options for ${field.name}.` };
    }
    const add = optionCents(option.price);
    if (add === null) throw new RangeError(`option "${field.name}: ${option.label}" has no valid price`);
    cents += add;
    options.push({ name: field.name, label: option.label, priceCents: add });
  }
  return { ok: true, cents, options };
}

/** A cart or order line's amount (DECISIONS 34): one unit's price with its options, times its quantity. */
export function lineTotalCents(unitCents: number, quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError(`a line of ${quantity} units`);
  return unitCents * quantity;
}

/** "$649.00" for one unit, "2 × $649.00" for more: how a line's units and price read. */
export function unitsAndPrice(quantity: number, unitCents: number): string {
  return quantity === 1 ? formatUsd(unitCents) : `${quantity} × ${formatUsd(unitCents)}`;
}

/**
 * DECISIONS 36: the shop's prices are the whole price. The company installs what it sells and pays
 * Michigan's sales tax on the materials it installs, so nothing is added at the checkout. Said
 * under the total of the cart, the checkout, the order's page and the buyer's receipt.
 */
export const TOTAL_INCLUDES = "includes installation and sales tax";
export const TAX_NOTE = `The total ${TOTAL_INCLUDES}: we pay the Michigan sales tax on the materials we install, so nothing is added at the checkout.`;
