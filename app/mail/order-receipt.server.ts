import type { MailRow } from "./render.server";
import { orderReceiptSubject } from "./subjects";
import type { MailReceipt } from "./submission-mail.server";

/**
 * A shop order's receipt (issue 30 item 4, issue 37 item 2), composed from the facts the checkout
 * hands over (app/shop/checkout/receipt.server.ts), written for a person: the reference, the items,
 * the amounts, the card, both addresses, what happens next and the order page's link, then what
 * they typed; the company's copy leads with the reference, the state and where to install.
 */
export type OrderMailFacts = {
  name: string;
  reference: string;
  paid: boolean;
  /** "$249.00". */
  total: string;
  /** What the total includes (DECISIONS 36: the whole price, said with it). */
  totalIncludes: string;
  /** "Visa ending in 4242". */
  card: string;
  /** The charge in one sentence: the page's message and the receipt's intro say it. */
  line: string;
  /** One row an item: the units, one unit's price, what the line cost, the options. */
  items: MailRow[];
  /** The installation address as the buyer reads it (said to be the billing one when it is). */
  installFact: string;
  billingAt: string;
  installSameAsBilling: boolean;
  /** What happens next, in the shop's words. */
  next: string;
  /** What is still being confirmed, said to the buyer (the page says it too). */
  pendingText: string;
  /** The order's page (SITE_URL + /order/{token}). */
  orderUrl: string;
  /** What the buyer typed, for their records (never the card). */
  details: MailRow[];
};

/** The buyer's receipt: paid, or placed with its payment still being confirmed. */
export function orderReceipt(f: OrderMailFacts): MailReceipt {
  const common = {
    subject: orderReceiptSubject(f.reference, f.paid),
    facts: buyerFacts(f),
    action: { label: "See your order", url: f.orderUrl },
    rows: f.details,
    staffFacts: staffFacts(f),
  };
  return f.paid
    ? {
        ...common,
        title: "Your order is placed",
        intro: `Thank you, ${f.name}. ${f.line} Keep this e-mail for your records: its link opens your order's page.`,
        sections: [{ heading: "What happens next", paragraphs: [f.next] }],
      }
    : {
        ...common,
        title: "Your order is placed; the payment is being confirmed",
        intro: `Hello ${f.name}. ${f.pendingText}`,
        sections: [
          {
            heading: "What happens next",
            paragraphs: ["We will e-mail you as soon as the payment is confirmed.", f.next],
          },
        ],
      };
}

/** The receipt's facts: the reference, the items, the total, the charge, both addresses. */
function buyerFacts(f: OrderMailFacts): MailRow[] {
  return [
    { label: "Order reference", value: f.reference },
    ...f.items,
    { label: "Total", value: `${f.total} (${f.totalIncludes})` },
    f.paid
      ? { label: "Paid", value: `${f.total} charged to ${f.card}` }
      : { label: "Payment", value: `${f.total} on ${f.card}, being confirmed with the card processor` },
    { label: "Installation address", value: f.installFact },
    { label: "Billing address", value: f.billingAt },
  ];
}

/** The staff's facts at the head of the company's copy: the reference, the state, where to install, what is next. */
function staffFacts(f: OrderMailFacts): MailRow[] {
  return [
    { label: "Order reference", value: f.reference },
    { label: "State", value: f.paid ? "Paid; received" : "Payment being confirmed; received" },
    {
      label: "Install at",
      value: f.installSameAsBilling ? f.installFact : `${f.installFact} (not the billing address)`,
    },
    { label: "Next", value: "Call the buyer within two business days to schedule the installation." },
  ];
}
