import type { ShouldRevalidateFunction } from "react-router";
import { formAction } from "~/forms/actions.server";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { isFormActionData } from "~/forms/result";
import formsCss from "~/forms/forms.css?url";
import { formPageHeaders } from "~/http/cache-control";
import { pageHead } from "~/shell/page-head";
import cartCss from "~/shop/cart.css?url";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import { CheckoutPage } from "~/shop/checkout/CheckoutPage";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { loadCheckoutPage } from "~/shop/checkout/page.server";
import type { Route } from "./+types/checkout";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: formsCss },
  { rel: "stylesheet", href: cartCss },
  { rel: "stylesheet", href: checkoutCss },
];

export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Checkout",
    description: "Pay for the products in your cart by card.",
    path: "/checkout",
  }),
  { name: "robots", content: "noindex" },
];

/** One visitor's cart and a single-use captcha: never stored by a browser or a shared cache. */
export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

/**
 * The checkout (SPEC §2 Checkout, issue 17 item 5): the cookie's cart as the
 * server prices it now, beside the billing and payment form. The amount
 * charged is the cart's at the moment of the post, and only if it is still the
 * total shown here (shop/checkout/handle.server.ts).
 */
export const loader = ({ request }: Route.LoaderArgs) => loadCheckoutPage(request);

// Success answers 303 to the order's page, /order/{token}?placed (with JavaScript the fetcher follows it).
export const action = (args: Route.ActionArgs) => formAction(checkoutForm, args);
export const clientAction = leadFormClientAction;
// The cart is read again after a refused order (its total or stock may have changed meanwhile).
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  isFormActionData(args.actionResult) && args.actionResult.status === "error" ? true : leadFormShouldRevalidate(args);

export default function Checkout({ loaderData }: Route.ComponentProps) {
  return <CheckoutPage loaderData={loaderData} />;
}
