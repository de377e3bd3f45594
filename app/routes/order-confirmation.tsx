import { Link, redirect } from "react-router";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { formatUsd } from "~/payments/money";
import { pageHead } from "~/shell/page-head";
import { cartIdOf } from "~/shop/cart.server";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import { CHECKOUT_PENDING } from "~/shop/checkout/identity";
import { findOwnOrder, findOwnOrderByPayment, orderConfirmationPath } from "~/shop/checkout/orders.server";
import type { Route } from "./+types/order-confirmation";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: checkoutCss }];

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
 * SPEC §2 Order confirmation with DECISIONS 21: the order id and total are
 * read from the database for the cart cookie that placed the order
 * (`?order=ID`), 'N/A' when there is none or it is another cart's. A checkout
 * posted again after it was stored knows only its payment (`?payment=ID`,
 * the pipeline's receipt path): it is sent on to its order's address.
 */
export async function loader({ request, url }: Route.LoaderArgs) {
  const db = await getDb();
  const cartId = await cartIdOf(request);
  const payment = whole(url.searchParams.get("payment"));
  if (!Number.isNaN(payment)) {
    const order = await findOwnOrderByPayment(db, payment, cartId);
    if (order) throw redirect(orderConfirmationPath(order.id), 303);
  }
  const order = await findOwnOrder(db, whole(url.searchParams.get("order")), cartId);
  return { order: order && { id: order.id, total: formatUsd(order.totalCents), pending: order.status === "pending" } };
}

export default function OrderConfirmation({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <section className="section">
      <div className="shell-container">
        <div className="order-confirmation">
          <h1 className="section-title">Your Order Was Successful!</h1>
          <p>
            A confirmation email has been sent to you, and a service representative will reach out shortly to schedule
            your installation.
          </p>
          {order?.pending ? <p role="status">{CHECKOUT_PENDING}</p> : null}
          <dl className="order-facts">
            <dt>Order ID</dt>
            <dd data-testid="order-id">{order ? order.id : "N/A"}</dd>
            <dt>Total</dt>
            <dd data-testid="order-total">{order ? order.total : "N/A"}</dd>
          </dl>
          <Link className="btn btn-primary btn-lg" to="/">
            Return to Home
          </Link>
        </div>
      </div>
    </section>
  );
}
