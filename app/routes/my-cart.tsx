import { type ShouldRevalidateFunction } from "react-router";
import { cachePolicy } from "~/http/cache-control";
import { clientIpOf } from "~/http/client-ip.server";
import { getDb } from "~/lib/db.server";
import { pageHead } from "~/shell/page-head";
import cartCss from "~/shop/cart.css?url";
import { cartIdOf, readCart } from "~/shop/cart.server";
import { answerCartPost } from "~/shop/cart-page.server";
import { CartPage, cartPageData } from "~/shop/CartView";
import type { Route } from "./+types/my-cart";

/**
 * The cart (issue 17 item 4, SPEC §2 Cart). One visitor's page: its loader
 * reads the cookie's cart, priced from the catalogue now; it is never stored
 * by a browser or a shared cache. Its action takes the product page's
 * 'Add to Cart', a line's quantity and deletions, by intent
 * (shop/cart-page.server.ts, shop/cart-intents.ts).
 *
 * Delete asks first (the view, shop/CartView.tsx): with JavaScript in the
 * 'Confirm Deletion' dialog; without, the delete button is a GET to
 * `?remove=<item>`, which shows the same question with a POST form.
 */

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: cartCss }];

export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Your Shopping Cart",
    description: "The products in your shopping cart.",
    path: "/my-cart",
  }),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return { ...cachePolicy.private, ...(retryAfter ? { "Retry-After": retryAfter } : {}) };
};

export async function loader({ request }: Route.LoaderArgs) {
  const cart = await readCart(await getDb(), await cartIdOf(request));
  return cartPageData(cart, new URL(request.url).searchParams.get("remove"));
}

export const action = ({ request, context }: Route.ActionArgs) => answerCartPost(request, clientIpOf(context));

/**
 * The cart is read again after every post to it, a refusal too: a quantity refused beyond the stock
 * was set to what is left, and the page (with JavaScript, a fetcher's answer) must show it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/my-cart" ? true : defaultShouldRevalidate;

export default function MyCart({ loaderData, actionData }: Route.ComponentProps) {
  return <CartPage data={loaderData} action={actionData} />;
}
