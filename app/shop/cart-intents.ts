/**
 * What a post to the cart asks (issue 37 item 5), as Hydrogen's `CartForm.ACTIONS`: one constant
 * for the forms that post it (the product page's "Add to Cart", a line's quantity, the delete
 * confirmations), the cart page's action (./cart-page.server.ts) and the /api/store/cart/* routes,
 * one intent each (./cart-api.server.ts). A post whose intent is none of these is refused (400),
 * never taken for "add".
 */
export const CART_INTENT_FIELD = "intent";

export const CartIntent = { add: "add", update: "update", delete: "delete" } as const;

export type CartIntent = (typeof CartIntent)[keyof typeof CartIntent];

const INTENTS: readonly string[] = Object.values(CartIntent);

/** The intent a post names, or null when it names none of the cart's. */
export function cartIntentOf(value: unknown): CartIntent | null {
  return typeof value === "string" && INTENTS.includes(value) ? (value as CartIntent) : null;
}
