import { Link } from "react-router";
import { lazyForm } from "~/forms/ui/lazy-form";
import { CART_BLOCKED_MESSAGE } from "../cart-schema";
import { TaxNote } from "../TaxNote";
import { checkoutIdentity, EMPTY_CART_MESSAGE } from "./identity";
import type { CheckoutPageData } from "./page.server";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CheckoutForm = lazyForm(() => import("./Form").then((m) => m.CheckoutForm));

/**
 * The checkout page (/checkout): the billing and payment form beside the order summary; instead of
 * them, the lines that cannot be bought now (with "Edit Cart"), or the empty cart's message. Back
 * after paying says the order was paid for, with its link.
 */
export function CheckoutPage({ loaderData }: { loaderData: CheckoutPageData }) {
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
