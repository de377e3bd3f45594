import { Link, type ShouldRevalidateFunction } from "react-router";
import { formAction, paidFormBootstrap } from "~/forms/actions.server";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { isFormActionData } from "~/forms/result";
import formsCss from "~/forms/forms.css?url";
import { formPageHeaders } from "~/http/cache-control";
import { lazyForm } from "~/forms/ui/lazy-form";
import { getDb } from "~/lib/db.server";
import { centsToDecimal, formatUsd } from "~/payments/money";
import { pageHead } from "~/shell/page-head";
import cartCss from "~/shop/cart.css?url";
import { cartIdOf, readCart } from "~/shop/cart.server";
import { unitsAndPrice } from "~/shop/pricing";
import { TaxNote } from "~/shop/TaxNote";
import checkoutCss from "~/shop/checkout/checkout.css?url";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { CART_BLOCKED_MESSAGE } from "~/shop/cart-schema";
import { checkoutIdentity, EMPTY_CART_MESSAGE } from "~/shop/checkout/identity";
import type { Route } from "./+types/checkout";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CheckoutForm = lazyForm(() => import("~/shop/checkout/Form").then((m) => m.CheckoutForm));

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
export async function loader({ request }: Route.LoaderArgs) {
  const cart = await readCart(await getDb(), await cartIdOf(request));
  return {
    // Paid with this form a moment ago (Back after paying): the order's link leads the page (decision 060).
    form: await paidFormBootstrap(request),
    items: cart.items.map((item) => ({
      id: item.id,
      name: item.name,
      image: item.image,
      // SPEC's price per item, with the units when there are several ("2 × $649.00").
      price: item.priceCents === null ? null : unitsAndPrice(item.quantity, item.priceCents),
      problem: item.problemMessage,
    })),
    /** A line that cannot be bought now: no form, nothing to fill in, until the cart is changed (DECISIONS 34). */
    blocked: cart.blocked,
    total: cart.totalCents > 0 ? formatUsd(cart.totalCents) : null,
    /** What the form posts as `total`: the order is refused if the cart's total is not this any more. */
    shownTotal: centsToDecimal(cart.totalCents),
  };
}

// Success answers 303 to the order's page, /order/{token}?placed (with JavaScript the fetcher follows it).
export const action = (args: Route.ActionArgs) => formAction(checkoutForm, args);
export const clientAction = leadFormClientAction;
// The cart is read again after a refused order (its total or stock may have changed meanwhile).
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  isFormActionData(args.actionResult) && args.actionResult.status === "error" ? true : leadFormShouldRevalidate(args);

export default function Checkout({ loaderData }: Route.ComponentProps) {
  const { items, total, blocked } = loaderData;
  const recent = loaderData.form.recentPayment?.form === checkoutIdentity.id ? loaderData.form.recentPayment : null;
  return (
    <section className="section checkout-page">
      <div className="shell-container">
        <h1 className="section-title section-title--left">Checkout</h1>
        {/* Back after paying: the cart is empty now, so the form (which says it too) is not shown; say it here. */}
        {recent && total === null ? (
          <p className="form-message form-message--success form-recent-payment" role="status">
            You paid with this form a moment ago. <a href={recent.path}>See your order</a>; you do not need to pay
            again.
          </p>
        ) : null}
        {blocked ? (
          <div className="checkout-blocked">
            <div role="alert" className="cart-error">
              <p>{CART_BLOCKED_MESSAGE}</p>
              <ul>
                {items
                  .filter((item) => item.problem)
                  .map((item) => (
                    <li key={item.id}>
                      {item.name}: {item.problem}
                    </li>
                  ))}
              </ul>
            </div>
            <Link className="btn btn-primary" to="/my-cart">
              Edit Cart
            </Link>
          </div>
        ) : total === null ? (
          <div className="cart-empty">
            <p role="alert" className="cart-error">
              {EMPTY_CART_MESSAGE}
            </p>
            <Link className="btn btn-primary" to="/shop">
              Browse the shop
            </Link>
          </div>
        ) : (
          <div className="cart-layout checkout-layout">
            <div className="form-card">
              <CheckoutForm bootstrap={loaderData.form} shownTotal={loaderData.shownTotal} />
            </div>
            <aside className="cart-summary" aria-labelledby="checkout-summary-title">
              <h2 id="checkout-summary-title">Order summary</h2>
              <ul className="checkout-items">
                {items.map((item) => (
                  <li key={item.id} className="checkout-item">
                    <img src={item.image} alt="" width={64} height={48} loading="lazy" decoding="async" />
                    <span className="checkout-item-name">{item.name}</span>
                    <span className="checkout-item-price">{item.price ?? "Unavailable"}</span>
                  </li>
                ))}
              </ul>
              <p className="cart-total">
                <span>Total</span> <strong data-testid="checkout-total">{total}</strong>
              </p>
              <TaxNote />
              <Link className="btn btn-outline btn-block" to="/my-cart">
                Edit Cart
              </Link>
            </aside>
          </div>
        )}
      </div>
    </section>
  );
}
