import { company } from "~/lib/company";
import { env } from "~/lib/env.server";
import type { MailReceipt } from "~/mail/submission-mail.server";
import type { MailRow } from "~/mail/render.server";
import { chargeRows } from "~/mail/charge-rows";
import { orderReceipt } from "~/mail/order-receipt.server";
import { summaryRows } from "~/mail/summary";
import { formatUsd } from "~/payments/money";
import { TOTAL_INCLUDES } from "../pricing";
import { cardLabel, staffCardLabel } from "~/payments/words";
import type { PaymentOutcome } from "~/payments/payments.server";
import { CHECKOUT_PENDING, CHECKOUT_SUCCESS, orderNextStep, orderPath } from "./identity";
import { installationOf, installationLabels, type InstallationAddress } from "./installation";
import { addressLines, orderLineView, type PlacedOrder } from "./orders.server";
import { checkoutLabels, type CheckoutInput } from "./schema";
import type { CheckoutCart } from "./stock.server";

/**
 * What an order says to the buyer and to the company (issue 30 item 4): the page's success
 * message, the buyer's receipt (written for a person: the reference, the items, the amounts, the
 * card, both addresses, what happens next and the order page's link, then what they typed) and
 * the company's copy (the reference, the state, where to install, then every field and the
 * payment's id). Money is formatted from the cents the server charged.
 */
export function orderMessages(
  value: CheckoutInput,
  cart: CheckoutCart,
  payment: PaymentOutcome,
  placed: PlacedOrder,
): { message: string; receipt: MailReceipt; summary: MailRow[] } {
  const facts = orderFacts(value, cart, payment, placed);
  const receipt = buyerReceipt(value, placed, facts);
  const summary = companySummary(value, payment, placed, facts);
  return { message: facts.paid ? `${CHECKOUT_SUCCESS} ${facts.line}` : CHECKOUT_PENDING, receipt, summary };
}

/** What the buyer's receipt and the company's copy both say of an order, worked out once. */
type OrderFacts = {
  paid: boolean;
  total: string;
  card: string;
  installation: InstallationAddress;
  billingAt: string;
  installAt: string;
  /** The installation address as the buyer reads it (said to be the billing one when it is). */
  installFact: string;
  /** The charge in one sentence: the page's message and the receipt's intro say it. */
  line: string;
  items: MailRow[];
};

/** The amounts, the card, the addresses and the items of an order, formatted for its messages. */
function orderFacts(
  value: CheckoutInput,
  cart: CheckoutCart,
  payment: PaymentOutcome,
  placed: PlacedOrder,
): OrderFacts {
  const paid = payment.status === "approved";
  const total = formatUsd(cart.totalCents);
  const card = cardLabel(payment.brand, payment.last4);
  const installation = installationOf(value);
  const billingAt = addressLines(value).join(", ");
  const installAt = addressLines(installation).join(", ");
  const installFact = installation.sameAsBilling ? `${installAt} (the billing address)` : installAt;
  const line = `${total} charged to ${card} for order ${placed.reference}.`;
  return { paid, total, card, installation, billingAt, installAt, installFact, line, items: itemRows(cart) };
}

/** The items as the buyer chose them: the units, one unit's price, what the line cost, the options. */
function itemRows(cart: CheckoutCart): MailRow[] {
  return cart.lines.map((l) => {
    const v = orderLineView(l);
    const amount = l.quantity === 1 ? v.lineTotal : `${v.units} = ${v.lineTotal}`;
    return { label: v.name, value: [amount, ...v.options].join(" · ") };
  });
}

/** The buyer's receipt, composed in app/mail/ from the order's facts. */
function buyerReceipt(value: CheckoutInput, placed: PlacedOrder, f: OrderFacts): MailReceipt {
  return orderReceipt({
    name: value.name,
    reference: placed.reference,
    paid: f.paid,
    total: f.total,
    totalIncludes: TOTAL_INCLUDES,
    card: f.card,
    line: f.line,
    items: f.items,
    installFact: f.installFact,
    billingAt: f.billingAt,
    installSameAsBilling: f.installation.sameAsBilling,
    next: orderNextStep("received", company.phone.display),
    pendingText: CHECKOUT_PENDING,
    orderUrl: `${env().SITE_URL}${orderPath(placed.token)}`,
    // What they typed, for their records: never the card (its brand and last four are above).
    details: summaryRows(checkoutLabels, value, [
      "cardNumber",
      "expiry",
      "cvv",
      "total",
      "address",
      "city",
      "state",
      "zip",
    ]),
  });
}

/** The company's copy: everything sent (the card's brand and last four only), the charge as staff find it. */
function companySummary(value: CheckoutInput, payment: PaymentOutcome, placed: PlacedOrder, f: OrderFacts): MailRow[] {
  const { paid, total, installAt } = f;
  return [
    { label: "Order reference", value: placed.reference },
    ...summaryRows(checkoutLabels, value, ["cardNumber", "expiry", "cvv", "total"]),
    {
      label: "Installation",
      value: f.installation.sameAsBilling ? `${installationLabels.installSameAsBilling}: ${installAt}` : installAt,
    },
    ...f.items,
    // DECISIONS 36: the whole price, said with it.
    { label: "Total", value: `${total} (${TOTAL_INCLUDES})` },
    ...chargeRows({ staffCard: staffCardLabel(payment.brand, payment.last4), paid, paymentId: payment.paymentId }),
  ];
}
