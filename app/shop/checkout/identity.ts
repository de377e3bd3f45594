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

/** An order's page (DECISIONS 32): its link's token is the only key; `?placed` right after paying. */
export const orderPath = (token: string) => `/order/${token}`;
export const ORDER_PLACED_PARAM = "placed";
export const ORDER_REFERENCE_PATTERN = /^DO-[0-9A-Z]{4}-[0-9A-Z]{2}$/;

/**
 * SPEC §2 Order confirmation: the heading and the line of a real order (DECISIONS 33). SPEC's line
 * also said a representative "will reach out shortly"; the page's "What happens next" says when
 * (`orderNextStep`), once (issue 38 item 7).
 */
export const ORDER_SUCCESS_HEADING = "Your Order Was Successful!";
export const ORDER_SUCCESS_TEXT = "A confirmation email has been sent to you.";
/** /order-confirmation with no order of this visitor's: SPEC's 'N/A' values under a neutral heading (DECISIONS 33). */
export const NO_ORDER_HEADING = "No order to show";

/** Where an order stands (orders.order_status, set by staff), as the buyer reads it. */
export const ORDER_PROGRESS_TEXT = {
  received: "Received",
  scheduled: "Installation scheduled",
  installed: "Installed",
  cancelled: "Cancelled",
} as const;

/** What happens next, by where the order stands; `phone` is the company's. */
export function orderNextStep(progress: keyof typeof ORDER_PROGRESS_TEXT, phone: string): string {
  switch (progress) {
    case "received":
      return `A service representative will call you within two business days to schedule the installation. Questions before then: call us at ${phone}.`;
    case "scheduled":
      return `Your installation is scheduled: we agreed the day with you by phone. To change it, call us at ${phone}.`;
    case "installed":
      return `Your order is installed. Thank you! For service or warranty questions, call us at ${phone}.`;
    case "cancelled":
      return `This order is cancelled. Questions about it or about a refund: call us at ${phone}.`;
  }
}
