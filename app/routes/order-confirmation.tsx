import formsCss from "~/forms/forms.css?url";
import { cachePolicy } from "~/http/cache-control";
import { pageHead } from "~/shell/page-head";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import { loadOrderConfirmation } from "~/shop/checkout/confirmation.server";
import { OrderConfirmation } from "~/shop/checkout/OrderConfirmation";
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

/**
 * SPEC §2 Order confirmation with DECISIONS 21 and 33. The checkout sends a buyer to their
 * order's own page (/order/{token}?placed); this page answers what knows no token: a checkout
 * posted again after it was stored (`?payment=ID`, the pipeline's receipt path) and the links of
 * before (`?order=ID`). It shows the order read from the database for the cart cookie that placed
 * it, with SPEC's Order ID (its reference, never the row id) and Total, and says the link to the
 * order's page is in the e-mail. With none of this visitor's, SPEC's 'N/A' values under a neutral
 * heading.
 */
export const loader = ({ request, url }: Route.LoaderArgs) => loadOrderConfirmation(request, url);

export default function OrderConfirmationPage({ loaderData }: Route.ComponentProps) {
  return <OrderConfirmation loaderData={loaderData} />;
}
