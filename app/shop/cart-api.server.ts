import type { Database } from "@db/client.server";
import { BodyError } from "~/http/body.server";
import { cachePolicy } from "~/http/cache-control";
import { isDatabaseUnavailable } from "~/forms/pipeline";
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { centsToDecimal } from "~/payments/money";
import {
  addToCart,
  CART_ADD_MESSAGES,
  cartCookieHeader,
  cartIdOf,
  countCartUnits,
  readCart,
  readCartInput,
  removeFromCart,
  updateCartLine,
  type CartLine,
  type CartRefusal,
} from "./cart.server";
import { CartIntent } from "./cart-intents";

/**
 * The SPEC §7 cart calls, on the same cookie cart as /my-cart. Every answer
 * is JSON and private to the visitor (never stored by a browser or proxy);
 * a body we cannot read gets its 4xx and a database that is down a 503, each
 * as `{ success: false, message }`: never a 500 for what a client sent.
 */
export const CART_UNAVAILABLE_MESSAGE = "Your cart is not available just now. Please try again in a minute.";

type Answer = (db: Database, request: Request, clientIp: string | null) => Promise<Response>;

function cartJson(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(body, { status, headers: { ...cachePolicy.private, ...headers } });
}

/** Runs one call's answer for the visitor at `clientIp`; `db` only for tests (the server's connection otherwise). */
export async function cartApi(
  request: Request,
  answer: Answer,
  { db, clientIp = null }: { db?: Database; clientIp?: string | null } = {},
): Promise<Response> {
  try {
    return await answer(db ?? (await getDb()), request, clientIp);
  } catch (error) {
    if (error instanceof BodyError) return cartJson({ success: false, message: error.message }, error.status);
    if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { cause?: unknown } | null)?.cause)) {
      log.error({ err: { code: (error as { code?: string }).code } }, "cart call failed: database unavailable");
      return cartJson({ success: false, message: CART_UNAVAILABLE_MESSAGE }, 503, { "Retry-After": "30" });
    }
    throw error;
  }
}

/**
 * SPEC §3 Cart item (read): id, name, final_price (one unit), description, stock, selectedOptions,
 * image; plus the product's id, `quantity` (DECISIONS 34) and `problem`: null, or why the line
 * cannot be bought now (out of stock, more than the stock, an option withdrawn), in which case it is
 * left out of `total` and the checkout refuses the cart.
 */
export function apiCartItem(line: CartLine) {
  return {
    id: line.id,
    inventory_id: line.productId,
    name: line.name,
    final_price: line.priceCents === null ? null : line.priceCents / 100,
    description: line.description,
    stock: line.stock,
    selectedOptions: line.selectedOptions,
    image: line.image,
    quantity: line.quantity,
    problem: line.problemMessage,
  };
}

/** A refusal as `{success: false, message}`, with the line concerned as it now is (`cartItem`) when there is one. */
function refusal(outcome: CartRefusal): Response {
  return cartJson(
    { success: false, message: outcome.message, ...(outcome.item ? { cartItem: apiCartItem(outcome.item) } : {}) },
    outcome.status,
    outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : {},
  );
}

/**
 * POST /api/store/cart/add: one more unit of the product with these options (its line goes up by
 * one, or a new line is made), priced from the catalogue (posted prices ignored); the first add
 * sets the cookie. Beyond the stock: 409 "Only N left in stock." with the line as it is.
 */
export const cartAdd: Answer = async (db, request, clientIp) => {
  const outcome = await addToCart(db, await cartIdOf(request), await readCartInput(request), clientIp);
  if (!outcome.ok) return refusal(outcome);
  const headers: HeadersInit = outcome.newCart ? { "Set-Cookie": await cartCookieHeader(outcome.cartId) } : {};
  return cartJson(
    { success: true, message: CART_ADD_MESSAGES.added, cartItem: apiCartItem(outcome.item) },
    200,
    headers,
  );
};

/**
 * POST /api/store/cart/update: `{cart_id, quantity}`, a line of the cookie's own cart set to 1 to
 * QUANTITY_MAX units; beyond the stock, 409 "Only N left in stock." and the line set to what is left.
 */
export const cartUpdate: Answer = async (db, request) => {
  const outcome = await updateCartLine(db, await cartIdOf(request), await readCartInput(request));
  if (!outcome.ok) return refusal(outcome);
  return cartJson({ success: true, message: CART_ADD_MESSAGES.updated, cartItem: apiCartItem(outcome.item) });
};

/** GET /api/store/cart/get: `{cartItems: [...]}` of the cookie's cart, priced now, and the total of the lines that can be bought. */
export const cartGet: Answer = async (db, request) => {
  const cart = await readCart(db, await cartIdOf(request));
  return cartJson({ cartItems: cart.items.map(apiCartItem), total: Number(centsToDecimal(cart.totalCents)) });
};

/**
 * GET /api/store/cart/count: `{count}`, the units in the cookie's cart (0 without one), for the
 * header's cart link on a page the shared page cache answered (beyond SPEC §7).
 */
export const cartCount: Answer = async (db, request) => {
  const cartId = await cartIdOf(request);
  return cartJson({ count: cartId ? await countCartUnits(db, cartId) : 0 });
};

/** POST /api/store/cart/delete: `cart_id`, a line of the cookie's own cart; another cart's line is "not in your cart". */
export const cartDelete: Answer = async (db, request) => {
  const { cart_id } = await readCartInput(request);
  const outcome = await removeFromCart(db, await cartIdOf(request), cart_id);
  return outcome.ok
    ? cartJson({ success: true, message: CART_ADD_MESSAGES.removed })
    : cartJson({ success: false, message: outcome.message }, outcome.status);
};

/** The answer of each cart intent (./cart-intents.ts), one /api/store/cart/* route each. */
export const cartIntentAnswers: Readonly<Record<CartIntent, Answer>> = {
  [CartIntent.add]: cartAdd,
  [CartIntent.update]: cartUpdate,
  [CartIntent.delete]: cartDelete,
};
