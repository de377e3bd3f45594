import { orders } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { FormFailure, type FormDefinition } from "~/forms/pipeline";
import { orderReceiptSubject } from "~/mail/subjects";
import { summaryRows } from "~/mail/summary";
import { formatUsd, parseDollars } from "~/payments/money";
import { linkPayment } from "~/payments/payments.server";
import { cartIdOf } from "../cart.server";
import { lineTotalCents, unitsAndPrice } from "../pricing";
import {
  CHECKOUT_PENDING,
  CHECKOUT_SUCCESS,
  checkoutIdentity,
  PAYMENT_FAILED_MESSAGE,
  STOCK_MESSAGES,
} from "./identity";
import { findOwnOrder, insertOrder, orderConfirmationPath, paymentConfirmationPath } from "./orders.server";
import { cardOf, checkoutLabels, checkoutSchema } from "./schema";
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
 * out: nothing is charged); the card is charged that total, never a posted
 * one, and a posted total that differs from it (the page showed the cart
 * before it changed) is refused before any charge; `handle` turns the hold into the stock taken and writes the order with
 * its lines, the payment's link, the cart's lines removed and the two e-mails
 * (company, buyer's receipt) in one transaction, then sends the page to
 * /order-confirmation?order=ID (303). A refusal there voids the charge.
 */
export const checkoutForm: FormDefinition<typeof checkoutSchema, CheckoutCart> = {
  ...checkoutIdentity,
  noun: "order",
  schema: checkoutSchema,
  successMessage: CHECKOUT_SUCCESS,
  payment: {
    purpose: "order",
    async reserve(db, value, key, request) {
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
    const orderId = await insertOrder(tx, value, cart, payment, { page: ctx.page, clientIp: ctx.clientIp });
    const submission = { table: getTableName(orders), id: orderId };
    await linkPayment(tx, payment.paymentId, submission);

    const paid = payment.status === "approved";
    const total = formatUsd(cart.totalCents);
    const card = payment.brand && payment.last4 ? `${payment.brand} ending in ${payment.last4}` : "your card";
    const line = `${total} charged to ${card} for order #${orderId}.`;
    const summary = [
      { label: "Order", value: `#${orderId}` },
      ...summaryRows(checkoutLabels, value, ["cardNumber", "expiry", "cvv"]),
      ...cart.lines.map((item) => ({
        label: item.name,
        value: [
          item.quantity === 1
            ? formatUsd(item.priceCents)
            : `${unitsAndPrice(item.quantity, item.priceCents)} = ${formatUsd(lineTotalCents(item.priceCents, item.quantity))}`,
          ...Object.entries(item.selectedOptions).map(([name, label]) => `${name}: ${label}`),
        ].join(" · "),
      })),
      { label: "Total", value: total },
      { label: "Card", value: payment.brand && payment.last4 ? card : "—" },
      {
        label: "Payment",
        value: paid ? `Approved (payment #${payment.paymentId})` : `Being confirmed (payment #${payment.paymentId})`,
      },
    ];
    return {
      submission,
      summary,
      name: value.name,
      email: value.email,
      message: paid ? `${CHECKOUT_SUCCESS} ${line}` : CHECKOUT_PENDING,
      receipt: paid
        ? {
            subject: orderReceiptSubject(orderId, true),
            title: "Order received",
            intro: `Thank you, ${value.name}. ${line} A service representative will reach out shortly to schedule your installation.`,
          }
        : {
            subject: orderReceiptSubject(orderId, false),
            title: "Payment being confirmed",
            intro: `Hello ${value.name}. ${CHECKOUT_PENDING}`,
          },
      // HTML posts go to the confirmation (redirect-after-post: a refresh does not order or pay again).
      redirectTo: ctx.api ? undefined : orderConfirmationPath(orderId),
    };
  },
  // SPEC §7's answer names the order and its total (dollars), on a resubmitted key too; only to
  // the cart that placed it.
  async apiFields(db, orderId, request) {
    const order = await findOwnOrder(db, orderId, await cartIdOf(request));
    return order ? { order_id: order.id, total: order.totalCents / 100 } : undefined;
  },
};
