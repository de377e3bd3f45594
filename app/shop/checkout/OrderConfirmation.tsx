import { Link } from "react-router";
import { CHECKOUT_PENDING, NO_ORDER_HEADING, ORDER_SUCCESS_HEADING, ORDER_SUCCESS_TEXT } from "./identity";
import { OrderDetails } from "./OrderDetails";
import type { OrderConfirmationData } from "./confirmation.server";

/**
 * The order confirmation page (/order-confirmation): SPEC's success heading (or the payment still
 * pending), Order ID and Total, where the link to the order's page is, and the order's details.
 * With no order of this visitor's, SPEC's 'N/A' values under a neutral heading.
 */
export function OrderConfirmation({ loaderData }: { loaderData: OrderConfirmationData }) {
  const { order } = loaderData;
  return (
    <section className="section">
      <div className="shell-container">
        <div className={order ? "order-page" : "order-confirmation"}>
          {order ? (
            <OrderPlaced paid={order.paid} />
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

/** An order just placed: SPEC's success heading and line, or that its payment is still being confirmed. */
export function OrderPlaced({ paid }: { paid: boolean }) {
  return (
    <>
      <h1 className="section-title section-title--left">{paid ? ORDER_SUCCESS_HEADING : "Your order was placed"}</h1>
      {paid ? (
        <p>{ORDER_SUCCESS_TEXT}</p>
      ) : (
        <p role="status" className="form-message form-message--error">
          {CHECKOUT_PENDING}
        </p>
      )}
    </>
  );
}
