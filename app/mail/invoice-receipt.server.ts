import type { MailRow } from "./render.server";
import { invoiceReceiptSubject } from "./subjects";
import type { MailReceipt } from "./submission-mail.server";

/**
 * The receipt of an invoice payment (issue 37 item 2), composed from the facts the invoice's
 * handler hands over (app/forms/invoice/handle.server.ts): paid, or its payment still being
 * confirmed.
 */
export type InvoiceMailFacts = {
  name: string;
  reference: string;
  invoiceNumber: string;
  amount: string;
  paid: boolean;
  /** The charge in one sentence: "$250.50 charged to Visa ending in 4242 for invoice INV-1001." */
  line: string;
  /** What is still being confirmed, said to the visitor (the page says it too). */
  pendingText: string;
  /** The receipt's facts, as its page shows them (reference, date, invoice, amount with the card). */
  facts: MailRow[];
  /** What the visitor typed, for their records (never the card). */
  details: MailRow[];
};

export function invoiceReceipt(f: InvoiceMailFacts): MailReceipt {
  const staffFacts = [
    { label: "Reference", value: f.reference },
    { label: "State", value: f.paid ? "Paid" : "Payment being confirmed" },
    { label: "Invoice number", value: f.invoiceNumber },
    { label: "Amount", value: f.amount },
  ];
  return {
    subject: invoiceReceiptSubject(f.invoiceNumber, f.paid),
    ...(f.paid
      ? { title: "Payment receipt", intro: `Thank you, ${f.name}. ${f.line} Keep this e-mail for your records.` }
      : { title: "Payment being confirmed", intro: `Hello ${f.name}. ${f.pendingText}` }),
    facts: f.facts,
    rows: f.details,
    staffFacts,
  };
}
