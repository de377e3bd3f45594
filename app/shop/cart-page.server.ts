import { data, redirect, replace } from "react-router";
import { BodyError } from "~/http/body.server";
import { getDb } from "~/lib/db.server";
import { addToCart, cartCookieHeader, cartIdOf, readCartInput, removeFromCart, updateCartLine } from "./cart.server";
import { CartIntent, cartIntentOf } from "./cart-intents";
import type { CartActionData } from "./CartView";

/** A post that names no intent of the cart's (./cart-intents.ts). */
export const UNKNOWN_CART_INTENT_MESSAGE = "We could not tell what to do with your cart. Please try again.";

/**
 * The cart page's action (routes/my-cart.tsx), by intent: the product page's "Add to Cart"
 * (`add`), a line's quantity (`update`, the same handler and schema as POST
 * /api/store/cart/update) and a deletion (`delete`), each answered with a redirect back to the
 * cart, so a refresh never posts again; a refusal ("Only 5 left in stock.") is answered with the
 * page, its message in the line it is about. Any other intent is a 400.
 */
export async function answerCartPost(request: Request, clientIp: string | null) {
  let input: Record<string, unknown>;
  try {
    input = await readCartInput(request);
  } catch (error) {
    if (error instanceof BodyError) return data<CartActionData>({ error: error.message }, { status: error.status });
    throw error;
  }
  const intent = cartIntentOf(input.intent);
  if (!intent) return data<CartActionData>({ error: UNKNOWN_CART_INTENT_MESSAGE }, { status: 400 });
  const db = await getDb();
  const cartId = await cartIdOf(request);
  if (intent === CartIntent.delete) {
    const outcome = await removeFromCart(db, cartId, input.cart_id);
    // Already gone (a second click, another tab): what the visitor asked for.
    if (!outcome.ok && outcome.status === 400)
      return data<CartActionData>({ error: outcome.message }, { status: outcome.status });
    return replace("/my-cart", 303);
  }
  if (intent === CartIntent.update) {
    const outcome = await updateCartLine(db, cartId, input);
    if (!outcome.ok)
      return data<CartActionData>({ error: outcome.message, line: outcome.item?.id }, { status: outcome.status });
    return replace("/my-cart", 303);
  }
  const outcome = await addToCart(db, cartId, input, clientIp);
  if (!outcome.ok)
    return data<CartActionData>(
      { error: `We could not add that to your cart. ${outcome.message}`, line: outcome.item?.id },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  return redirect("/my-cart", {
    status: 303,
    headers: outcome.newCart ? { "Set-Cookie": await cartCookieHeader(outcome.cartId) } : undefined,
  });
}
