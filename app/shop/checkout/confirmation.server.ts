import { getDb } from "~/lib/db.server";
import { cartIdOf } from "../cart.server";
import { findOwnOrderView } from "./orders.server";

/** A query value as a row id: whole digits only, anything else NaN (no order). */
const whole = (text: string | null) => (text && /^\d{1,10}$/.test(text) ? Number(text) : NaN);

/**
 * The order /order-confirmation shows: the one this visitor's cart cookie placed, by its payment
 * (`?payment=ID`, the pipeline's receipt path) or else by its row id (`?order=ID`, the links of
 * before); null when there is none of this visitor's.
 */
export async function loadOrderConfirmation(request: Request, url: URL) {
  const db = await getDb();
  const cartId = await cartIdOf(request);
  const payment = whole(url.searchParams.get("payment"));
  const order = !Number.isNaN(payment)
    ? await findOwnOrderView(db, { paymentId: payment }, cartId)
    : await findOwnOrderView(db, { orderId: whole(url.searchParams.get("order")) }, cartId);
  return { order };
}

/** What the order confirmation's loader gives its view (./OrderConfirmation.tsx). */
export type OrderConfirmationData = Awaited<ReturnType<typeof loadOrderConfirmation>>;
