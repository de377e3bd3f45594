import { orders } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { FormFailure, type FormDefinition } from "~/forms/pipeline";
import { formatUsd, parseDollars } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { orderRecord } from "~/payments/record";
import { cartIdOf } from "../cart.server";
import {
  CHECKOUT_SUCCESS,
  checkoutIdentity,
  ORDER_PLACED_PARAM,
  orderPath,
  PAYMENT_FAILED_MESSAGE,
  STOCK_MESSAGES,
} from "./identity";
import { findOwnOrder, insertOrder, paymentConfirmationPath } from "./orders.server";
import { orderMessages } from "./receipt.server";
import { cardOf, checkoutSchema } from "./schema";
import { installationAreaFailure } from "./service-area.server";
import { holdCart, releaseStock, takeStock, type CheckoutCart } from "./stock.server";

/**
 * The total the buyer was shown (the page's hidden `total`, SPEC §7's payload) in cents, or null
 * when none was sent or it is not an amount. It is never what is charged (DECISIONS 12).
 */
function shownTotalCents(total: unknown): number | null {
  return typeof total === "string" || typeof total === "number" ? parseDollars(String(total)) : null;
}

/**
 * Checkout (/checkout and POST /api/store/checkout; SPEC §2, §3, §5): a paid
 * form of the one pipeline. `reserve` reads the request's cookie cart, prices
 * it from the catalogue and holds its units (or names the product that ran
 * out: nothing is charged), after refusing an installation address outside
 * the service area (./service-area.server.ts); the card is charged that total, never a posted
 * one, and a posted total that differs from it (the page showed the cart
 * before it changed) is refused before any charge; `handle` turns the hold into the stock taken and writes the order with
 * its lines (its reference, its page's token, where to install), the payment's
 * link, the cart's lines removed and the two e-mails (company, buyer's receipt:
 * ./receipt.server.ts) in one transaction, then sends the page to the order's
 * own page, /order/{token}?placed (303). A refusal there voids the charge. A
 * resubmission never saw the token: it goes to /order-confirmation?payment=ID.
 */
export const checkoutForm: FormDefinition<typeof checkoutSchema, CheckoutCart> = {
  ...checkoutIdentity,
  noun: "order",
  schema: checkoutSchema,
  successMessage: CHECKOUT_SUCCESS,
  payment: {
    purpose: "order",
    async reserve(db, value, key, request) {
      // The installation address outside every 50-mile circle: refused before anything is held or charged.
      const area = await installationAreaFailure(value);
      if (area) return area;
      const cart = await holdCart(db, key, await cartIdOf(request));
      if (cart instanceof FormFailure) return cart;
      // A total that is not the cart's: the cart changed after the page showed it (another tab,
      // a new price). Charge nothing and show the buyer the cart as it is now.
      const shown = shownTotalCents(value.total);
      if (shown !== null && shown !== cart.totalCents) {
        await releaseStock(db, key);
        return new FormFailure(STOCK_MESSAGES.totalChanged(formatUsd(cart.totalCents)), {}, 409);
      }
      return { hold: cart };
    },
    release: releaseStock,
    amountCents: (_value, cart) => cart.totalCents,
    card: cardOf,
    description: (value) => `Shop order for ${value.name}`,
    priced: (_value, cart) => ({
      lines: cart.lines.map((line) => [line.productId, line.selectedOptions, line.quantity, line.priceCents]),
    }),
    details: (value, clientIp) => ({
      customer: { email: value.email, ip: clientIp ?? undefined },
      billing: {
        address: value.address,
        city: value.city,
        state: value.state,
        zip: value.zip,
        country: "United States",
      },
    }),
    receiptPath: paymentConfirmationPath,
    declinedMessage: PAYMENT_FAILED_MESSAGE,
  },
  async handle(tx, value, ctx) {
    const payment = ctx.payment;
    if (!payment || !ctx.paymentKey) throw new Error("an order reached its handler without a charge");
    const cart = ctx.hold;
    if (!cart) throw new Error("an order reached its handler without a held cart");
    // A twin post of this form (same key) that read a cart changed in between got
    // the first post's charge: it stores nothing; the first post stores its order.
    if (payment.amountCents !== cart.totalCents) throw new FormFailure(STOCK_MESSAGES.changed, {}, 409);
    await takeStock(tx, ctx.paymentKey, cart);
    const placed = await insertOrder(tx, value, cart, payment, { page: ctx.page, clientIp: ctx.clientIp });
    const submission = { table: getTableName(orders), id: placed.id };
    await linkPayment(tx, payment.paymentId, orderRecord(placed.id));
    const { message, receipt, summary } = orderMessages(value, cart, payment, placed);
    return {
      submission,
      summary,
      name: value.name,
      email: value.email,
      message,
      receipt,
      // HTML posts go to the order's own page (redirect-after-post: a refresh does not order or pay again).
      redirectTo: ctx.api ? undefined : `${orderPath(placed.token)}?${ORDER_PLACED_PARAM}`,
    };
  },
  // SPEC §3's confirmation state: the order (by its reference, never its row id: DECISIONS 32) and
  // its total (dollars), on a resubmitted key too; only to the cart that placed it.
  async apiFields(db, orderId, request) {
    const order = await findOwnOrder(db, orderId, await cartIdOf(request));
    return order ? { order_id: order.reference, total: order.totalCents / 100 } : undefined;
  },
};
