import { CARD_SECRETS_NOTICE } from "~/forms/card-names";
import type { FormIdentity } from "~/forms/identity";

/**
 * The checkout (issue 17 item 5; view: ./Form.tsx, handler:
 * ./handle.server.ts): a paid form of the one pipeline whose amount is the
 * cookie cart's, priced from the catalogue on the server. The card number and
 * CVC are never sent back (SPEC §3's payload names).
 */
export const checkoutIdentity = {
  id: "checkout",
  secretFields: ["cardNumber", "cvv"],
  secretsNotice: CARD_SECRETS_NOTICE,
} satisfies FormIdentity;

/** SPEC §5 Checkout, §8: a total of zero or less is refused with these words. */
export const EMPTY_CART_MESSAGE = "Your cart is empty. Add items before checking out.";
/** SPEC §8: a refused payment that comes without the processor's message. */
export const PAYMENT_FAILED_MESSAGE = "Payment failed.";
export const CHECKOUT_SUCCESS = "Thank you! Your order was placed.";
/** The processor's answer is unknown: the order is kept, not called paid, and must not be paid again. */
export const CHECKOUT_PENDING =
  "Your order was placed and your payment is being confirmed with the card processor. Please do not pay again: we will e-mail you as soon as it is confirmed.";

export const STOCK_MESSAGES = {
  outOfStock: (name: string) => `Sorry, ${name} is out of stock. Remove it from your cart to check out.`,
  fewer: (name: string, left: number) =>
    `Sorry, only ${left} of ${name} ${left === 1 ? "is" : "are"} left in stock. Remove some from your cart to check out.`,
  optionGone: (name: string) =>
    `An option chosen for ${name} is no longer offered. Remove it from your cart and add it again.`,
  busy: "This cart is being paid for in another window. Please wait a minute, then reload this page.",
  /** The total the page showed (its `total`) is not the cart's any more: another tab, a new price. */
  totalChanged: (total: string) =>
    `Your cart changed since this page was loaded: its total is now ${total}. Nothing was charged. Please check the order summary, then place your order again.`,
  changed:
    "Your cart changed while your payment was being processed, so the payment was cancelled and nothing was charged. Please review your cart and check out again.",
} as const;
