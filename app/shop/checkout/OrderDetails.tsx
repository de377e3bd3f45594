import { company } from "~/lib/company";
import { TaxNote } from "../TaxNote";
import { ORDER_PROGRESS_TEXT, orderNextStep } from "./identity";
import type { OrderView } from "./orders.server";

const placedOn = new Intl.DateTimeFormat("en-US", {
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "America/Detroit",
});

/**
 * One order as its buyer reads it (issue 30 item 4), on its page (/order/{token}) and on
 * /order-confirmation: where it stands, the items with their options and units, the amounts, the
 * card, where it is installed and billed, and what happens next. Every amount comes formatted
 * from the server (the order's stored cents).
 */
export function OrderDetails({ order, showReference = true }: { order: OrderView; showReference?: boolean }) {
  return (
    <div className="order-details">
      {showReference ? (
        <p className="order-reference">
          Order reference: <strong data-testid="order-reference">{order.reference}</strong>
        </p>
      ) : null}
      <dl className="order-list">
        <dt>Status</dt>
        <dd data-testid="order-status">{ORDER_PROGRESS_TEXT[order.progress]}</dd>
        <dt>Placed</dt>
        <dd>
          <time dateTime={order.placedAt}>{placedOn.format(new Date(order.placedAt))}</time>
        </dd>
        <dt>Payment</dt>
        <dd>{order.payment}</dd>
      </dl>

      <h2 className="order-subhead">Items</h2>
      <ul className="order-lines" aria-label="Items">
        {order.lines.map((line, i) => (
          <li key={`${line.name}-${i}`} className="order-line">
            <span className="order-line-name">
              {line.name}
              {line.options.length > 0 ? <span className="order-line-options">{line.options.join(", ")}</span> : null}
            </span>
            <span className="order-line-units">{line.quantity > 1 ? line.units : `1 × ${line.unitPrice}`}</span>
            <strong className="order-line-total">{line.lineTotal}</strong>
          </li>
        ))}
      </ul>
      <p className="order-total">
        <span>Total</span> <strong data-testid="order-lines-total">{order.total}</strong>
      </p>
      <TaxNote />

      <h2 className="order-subhead">Addresses</h2>
      <dl className="order-list">
        <dt>Installation</dt>
        <dd data-testid="order-installation">
          {order.installation.lines.map((l) => (
            <span key={l} className="order-address-line">
              {l}
            </span>
          ))}
          {order.installation.sameAsBilling ? <span className="order-note">Same as the billing address</span> : null}
        </dd>
        <dt>Billing</dt>
        <dd data-testid="order-billing">
          {[order.name, ...order.billing].map((l) => (
            <span key={l} className="order-address-line">
              {l}
            </span>
          ))}
        </dd>
      </dl>

      <h2 className="order-subhead">What happens next</h2>
      <p data-testid="order-next">{orderNextStep(order.progress, company.phone.display)}</p>
      <p>
        <a href={company.phone.href}>Call {company.phone.display}</a>
      </p>
    </div>
  );
}
