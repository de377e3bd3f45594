import { Link } from "react-router";
import formsCss from "~/forms/forms.css?url";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { pageHead } from "~/shell/page-head";
import { cartIdOf } from "~/shop/cart.server";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import {
  CHECKOUT_PENDING,
  NO_ORDER_HEADING,
  ORDER_SUCCESS_HEADING,
  ORDER_SUCCESS_TEXT,
} from "~/shop/checkout/identity";
import { OrderDetails } from "~/shop/checkout/OrderDetails";
import { findOwnOrderView } from "~/shop/checkout/orders.server";
import type { Route } from "./+types/order-confirmation";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: formsCss },
  { rel: "stylesheet", href: checkoutCss },
];

export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Order Confirmation",
    description: "Your order was placed.",
    path: "/order-confirmation",
  }),
  { name: "robots", content: "noindex" },
];

/** One buyer's order: never stored by a browser or a shared cache. */
export const headers: Route.HeadersFunction = () => cachePolicy.private;

const whole = (text: string | null) => (text && /^\d{1,10}$/.test(text) ? Number(text) : NaN);

/**
 * SPEC §2 Order confirmation with DECISIONS 21 and 33. The checkout sends a buyer to their
 * order's own page (/order/{token}?placed); this page answers what knows no token: a checkout
 * posted again after it was stored (`?payment=ID`, the pipeline's receipt path) and the links of
 * before (`?order=ID`). It shows the order read from the database for the cart cookie that placed
 * it, with SPEC's Order ID (its reference, never the row id) and Total, and says the link to the
 * order's page is in the e-mail. With none of this visitor's, SPEC's 'N/A' values under a neutral
 * heading.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const db = await getDb();
  const cartId = await cartIdOf(request);
  const payment = whole(url.searchParams.get("payment"));
  const order = !Number.isNaN(payment)
    ? await findOwnOrderView(db, { paymentId: payment }, cartId)
    : await findOwnOrderView(db, { orderId: whole(url.searchParams.get("order")) }, cartId);
  return { order };
}

export default function OrderConfirmation({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <section className="section">
      <div className="shell-container">
        <div className={order ? "order-page" : "order-confirmation"}>
          {order ? (
            <>
              <h1 className="section-title section-title--left">
                {order.paid ? ORDER_SUCCESS_HEADING : "Your order was placed"}
              </h1>
              {order.paid ? (
                <p>{ORDER_SUCCESS_TEXT}</p>
              ) : (
                <p role="status" className="form-message form-message--error">
                  {CHECKOUT_PENDING}
                </p>
              )}
            </>
          ) : (
            <>
              <h1 className="section-title">{NO_ORDER_HEADING}</h1>
              <p>
                There is no order of yours at this address. If you placed one, the link to its page is in your
                confirmation e-mail.
              </p>
            </>
          )}
          <dl className="order-facts">
            <dt>Order ID</dt>
            <dd data-testid="order-id">{order ? order.reference : "N/A"}</dd>
            <dt>Total</dt>
            <dd data-testid="order-total">{order ? order.total : "N/A"}</dd>
          </dl>
          {order ? (
            <>
              <p className="form-hint" data-testid="order-link-note">
                The link to your order&apos;s page, where you can follow it, is in the e-mail we sent to {order.email}.
              </p>
              <OrderDetails order={order} showReference={false} />
            </>
          ) : null}
          <Link className="btn btn-primary btn-lg" to="/">
            Return to Home
          </Link>
        </div>
      </div>
    </section>
  );
}
