import { data, redirect, replace, type ShouldRevalidateFunction } from "react-router";
import { BodyError } from "~/http/body.server";
import { cachePolicy } from "~/http/cache-control";
import { clientIpOf } from "~/http/client-ip.server";
import { getDb } from "~/lib/db.server";
import { pageHead } from "~/shell/page-head";
import cartCss from "~/shop/cart.css?url";
import {
  addToCart,
  cartCookieHeader,
  cartIdOf,
  readCart,
  readCartInput,
  removeFromCart,
  updateCartLine,
} from "~/shop/cart.server";
import { CartPage, cartPageData, type CartActionData } from "~/shop/CartView";
import type { Route } from "./+types/my-cart";

/**
 * The cart (issue 17 item 4, SPEC §2 Cart). One visitor's page: its loader
 * reads the cookie's cart, priced from the catalogue now; it is never stored
 * by a browser or a shared cache. Its action takes the product page's
 * 'Add to Cart' form (`intent=add`), a line's quantity (`intent=update`, the
 * same handler and schema as POST /api/store/cart/update) and deletions
 * (`intent=delete`), each answered with a redirect back here, so a refresh
 * never posts again; a refusal ("Only 5 left in stock.") is answered with the
 * page, its message in the line it is about.
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

export async function action({ request, context }: Route.ActionArgs) {
  let input: Record<string, unknown>;
  try {
    input = await readCartInput(request);
  } catch (error) {
    if (error instanceof BodyError) return data<CartActionData>({ error: error.message }, { status: error.status });
    throw error;
  }
  const db = await getDb();
  const cartId = await cartIdOf(request);
  if (input.intent === "delete") {
    const outcome = await removeFromCart(db, cartId, input.cart_id);
    // Already gone (a second click, another tab): what the visitor asked for.
    if (!outcome.ok && outcome.status === 400)
      return data<CartActionData>({ error: outcome.message }, { status: outcome.status });
    return replace("/my-cart", 303);
  }
  if (input.intent === "update") {
    const outcome = await updateCartLine(db, cartId, input);
    if (!outcome.ok)
      return data<CartActionData>({ error: outcome.message, line: outcome.item?.id }, { status: outcome.status });
    return replace("/my-cart", 303);
  }
  const outcome = await addToCart(db, cartId, input, clientIpOf(context));
  if (!outcome.ok)
    return data<CartActionData>(
      { error: `We could not add that to your cart. ${outcome.message}`, line: outcome.item?.id },
      {
        status: outcome.status,
        headers: outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined,
      },
    );
  return redirect("/my-cart", {
    status: 303,
    headers: outcome.newCart ? { "Set-Cookie": await cartCookieHeader(outcome.cartId) } : undefined,
  });
}

/**
 * The cart is read again after every post to it, a refusal too: a quantity refused beyond the stock
 * was set to what is left, and the page (with JavaScript, a fetcher's answer) must show it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/my-cart" ? true : defaultShouldRevalidate;

export default function MyCart({ loaderData, actionData }: Route.ComponentProps) {
  return <CartPage data={loaderData} action={actionData} />;
}
