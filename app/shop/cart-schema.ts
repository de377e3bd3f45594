import { z } from "zod";

/**
 * What adding to the cart and removing from it accept (client-safe), one
 * schema for both ways in: the product page's form posts `inventory_id` and
 * one `selectedOptions.<field name>` select per custom field (Conform's nested
 * naming), the SPEC §7 JSON call sends `{inventory_id, name, base_price,
 * final_price, selectedOptions}`. `name`, `base_price` and `final_price` are
 * accepted and never read (DECISIONS 12): the server prices the line from the
 * catalogue (app/shop/pricing.ts).
 */

export const CART_MESSAGES = {
  product: "Choose a product from our shop.",
  options: "Choose one of the listed options.",
  item: "That item is not in your cart.",
} as const;

/** A catalogue id as a form (text) or JSON (number) sends it; a Postgres integer. */
const productId = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/, CART_MESSAGES.product),
    ],
    CART_MESSAGES.product,
  )
  .transform(Number)
  .pipe(
    z
      .number(CART_MESSAGES.product)
      .int(CART_MESSAGES.product)
      .min(1, CART_MESSAGES.product)
      .max(2 ** 31 - 1, CART_MESSAGES.product),
  );

const label = z.string(CART_MESSAGES.options).max(200, CART_MESSAGES.options);

export const cartAddSchema = z.object({
  inventory_id: productId,
  /** Field name → chosen option label; a field left out takes its first option. */
  selectedOptions: z.record(label, label, CART_MESSAGES.options).optional(),
  // Sent by the original client, ignored here: the price is the catalogue's.
  name: z.unknown().optional(),
  base_price: z.unknown().optional(),
  final_price: z.unknown().optional(),
});

/** A cart line's id (SPEC §7 calls it `cart_id`): a uuid. */
export const cartItemIdSchema = z
  .string(CART_MESSAGES.item)
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, CART_MESSAGES.item);
