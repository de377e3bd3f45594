import { z } from "~/lib/zod";

/**
 * What adding to the cart, changing a line's quantity and removing a line
 * accept (client-safe), one schema for both ways in (the page's forms and the
 * /api/store/cart/* calls): the product page's form posts `inventory_id` and
 * one `selectedOptions.<field name>` select per custom field (Conform's nested
 * naming), the SPEC §7 JSON call sends `{inventory_id, name, base_price,
 * final_price, selectedOptions}`. `name`, `base_price` and `final_price` are
 * accepted and never read (DECISIONS 12): the server prices the line from the
 * catalogue (app/shop/pricing.ts).
 */

/** The most units one line may ask for, whatever the stock: a bound on what a forged request can name. */
export const QUANTITY_MAX = 999;

export const CART_MESSAGES = {
  product: "Choose a product from our shop.",
  options: "Choose one of the listed options.",
  item: "That item is not in your cart.",
  quantity: `Choose a quantity from 1 to ${QUANTITY_MAX}.`,
} as const;

/**
 * Why a line cannot be bought now (DECISIONS 34), as the cart page, the API's
 * `problem` and the checkout page say it. Such a line is left out of the total
 * and the cart cannot go to the checkout until it is removed or lowered.
 */
export const CART_LINE_PROBLEMS = {
  outOfStock: "Out of stock. Remove it from your cart to check out.",
  withdrawn: "No longer available with these options. Remove it from your cart to check out.",
  short: (left: number) => `${onlyLeft(left)} Lower the quantity to check out.`,
} as const;

/** Beside the cart's total and on the checkout page while a line is blocked: 'Proceed to Checkout' is off. */
export const CART_BLOCKED_MESSAGE =
  "Some items in your cart cannot be bought now and are not counted in the total. Remove them, or lower their quantity, to check out.";

/** An add or a quantity beyond the stock: refused with these words (the line is kept at the stock). */
export const onlyLeft = (left: number) => `Only ${left} left in stock.`;

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

/** The header's cart count (GET, `{count}`): asked by the browser when a page did not say it. */
export const CART_COUNT_PATH = "/api/store/cart/count";

/** The cart's cookie (signed: cart.server.ts). */
export const CART_COOKIE_NAME = "cart";
const CART_COOKIE_SENT = new RegExp(`(?:^|;)\\s*${CART_COOKIE_NAME}=`);

/**
 * Whether a request's Cookie header names a cart at all (signed or not: nothing is verified here):
 * its page shows the cart's count (root.tsx), so it is the visitor's own (page-cache.server.ts).
 */
export function sendsCartCookie(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && CART_COOKIE_SENT.test(cookieHeader);
}

/** A cart line's id (SPEC §7 calls it `cart_id`): a uuid. */
export const cartItemIdSchema = z
  .string(CART_MESSAGES.item)
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, CART_MESSAGES.item);

/** A line's new number of units, as the page's select (text) or JSON (number) sends it: 1 to QUANTITY_MAX. */
const quantity = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,4}$/, CART_MESSAGES.quantity),
    ],
    CART_MESSAGES.quantity,
  )
  .transform(Number)
  .pipe(
    z
      .number(CART_MESSAGES.quantity)
      .int(CART_MESSAGES.quantity)
      .min(1, CART_MESSAGES.quantity)
      .max(QUANTITY_MAX, CART_MESSAGES.quantity),
  );

/**
 * An add: the product, its options, and how many units (the product page's Quantity, 1 when not
 * sent, as SPEC §7's call does not).
 */
export const cartAddSchema = z.object({
  inventory_id: productId,
  /** Field name → chosen option label; a field left out takes its first option. */
  selectedOptions: z.record(label, label, CART_MESSAGES.options).optional(),
  quantity: quantity.optional(),
  // Sent by the original client, ignored here: the price is the catalogue's.
  name: z.unknown().optional(),
  base_price: z.unknown().optional(),
  final_price: z.unknown().optional(),
});

/** Changing a line's quantity: the page's Update form and POST /api/store/cart/update send the same two fields. */
export const cartUpdateSchema = z.object({
  cart_id: cartItemIdSchema,
  quantity,
});
