import { data, Link } from "react-router";
import formsCss from "~/forms/forms.css?url";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { pageHead } from "~/shell/page-head";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import { ORDER_PLACED_PARAM } from "~/shop/checkout/identity";
import { OrderPlaced } from "~/shop/checkout/OrderConfirmation";
import { OrderDetails } from "~/shop/checkout/OrderDetails";
import { findOrderByToken } from "~/shop/checkout/orders.server";
import type { Route } from "./+types/order";

/**
 * An order's page, /order/{token} (DECISIONS 32, issue 30 item 4): the link in the buyer's
 * receipt, and where the checkout sends them after paying (`?placed`: SPEC's success heading and
 * line lead). The token is the only key; the page is one buyer's, stored nowhere, sent with no
 * Referer, and not indexed. An unknown or malformed token is the site's 404.
 */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: formsCss },
  { rel: "stylesheet", href: checkoutCss },
];

export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Your order",
    description: "Your order: reference, items, addresses, payment and what happens next.",
    path: "/shop",
  }),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export const headers: Route.HeadersFunction = () => ({ ...cachePolicy.private, "Referrer-Policy": "no-referrer" });

export async function loader({ request, params }: Route.LoaderArgs) {
  const order = await findOrderByToken(await getDb(), params.token);
  if (!order) throw data("Order not found", { status: 404, headers: { "Referrer-Policy": "no-referrer" } });
  return { order, placed: new URL(request.url).searchParams.has(ORDER_PLACED_PARAM) };
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { order, placed } = loaderData;
  return (
    <section className="section">
      <div className="shell-container">
        <div className="order-page" id="order">
          {placed ? (
            <>
              <OrderPlaced paid={order.paid} />
              <p className="form-hint">
                This is your order&apos;s page. The e-mail we sent to {order.email} has its link, so you can come back
                to it at any time.
              </p>
            </>
          ) : (
            <h1 className="section-title section-title--left">Your order</h1>
          )}
          <OrderDetails order={order} />
          <Link className="btn btn-primary" to="/">
            Return to Home
          </Link>
        </div>
      </div>
    </section>
  );
}
