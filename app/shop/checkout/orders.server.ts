import { and, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "@db/client.server";
import { orderLines, orders, type OrderStatus } from "@db/schema";
import type { PaymentOutcome } from "~/payments/payments.server";
import type { CheckoutInput } from "./schema";
import type { CheckoutCart } from "./stock.server";

/**
 * Orders (issue 17 items 5–6): written by the checkout's transaction, read
 * back by /order-confirmation for the cart cookie that placed them only
 * (DECISIONS 21).
 */

export type OrderMeta = { page: string; clientIp: string | null };

/** The order and its lines as charged (each with its quantity): the cart as it was held, the payment's outcome. */
export async function insertOrder(
  tx: Tx,
  value: CheckoutInput,
  cart: CheckoutCart,
  payment: PaymentOutcome,
  meta: OrderMeta,
): Promise<number> {
  const status: OrderStatus = payment.status === "approved" ? "paid" : "pending";
  const [row] = await tx
    .insert(orders)
    .values({
      cartId: cart.cartId,
      status,
      totalCents: cart.totalCents,
      paymentId: payment.paymentId,
      cardBrand: payment.brand ?? null,
      cardLast4: payment.last4 ?? null,
      name: value.name,
      email: value.email,
      phone: value.phone,
      address: value.address,
      city: value.city,
      state: value.state,
      zip: value.zip,
      page: meta.page,
      clientIp: meta.clientIp,
    })
    .returning({ id: orders.id });
  const orderId = row!.id;
  await tx.insert(orderLines).values(
    cart.lines.map((line) => ({
      orderId,
      productId: line.productId,
      name: line.name,
      selectedOptions: line.selectedOptions,
      quantity: line.quantity,
      // One unit's price; Postgres keeps line_total_cents (price × quantity) beside it.
      priceCents: line.priceCents,
    })),
  );
  return orderId;
}

export type OwnOrder = { id: number; totalCents: number; status: OrderStatus };

/** An order, when this cart placed it; otherwise null (absent, not theirs, no cart). */
export async function findOwnOrder(db: DbOrTx, orderId: number, cartId: string | null): Promise<OwnOrder | null> {
  if (!cartId || !Number.isSafeInteger(orderId) || orderId < 1 || orderId > 2_147_483_647) return null;
  const [row] = await db
    .select({ id: orders.id, totalCents: orders.totalCents, status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.cartId, cartId)))
    .limit(1);
  return row ?? null;
}

/** The order a payment paid for, when this cart placed it (a resubmitted checkout's way back to its order). */
export async function findOwnOrderByPayment(
  db: DbOrTx,
  paymentId: number,
  cartId: string | null,
): Promise<OwnOrder | null> {
  if (!cartId || !Number.isSafeInteger(paymentId) || paymentId < 1 || paymentId > 2_147_483_647) return null;
  const [row] = await db
    .select({ id: orders.id, totalCents: orders.totalCents, status: orders.status })
    .from(orders)
    .where(and(eq(orders.paymentId, paymentId), eq(orders.cartId, cartId)))
    .limit(1);
  return row ?? null;
}

export const orderConfirmationPath = (orderId: number) => `/order-confirmation?order=${orderId}`;
/** A resubmission knows only its payment: the confirmation page finds the order from it. */
export const paymentConfirmationPath = (paymentId: number) => `/order-confirmation?payment=${paymentId}`;
