import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { invoicePayments, type InvoicePaymentStatus } from "@db/schema";
import { cardOfCharge, moneyOf } from "~/payments/ledger.server";
import { company } from "~/lib/company";
import { mailPaymentResolved } from "~/mail/payment-resolved.server";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { randomReference } from "~/lib/link-token.server";
import type { MailRow } from "~/mail/templates/types";
import { signedReceiptPath, verifiedReceiptId } from "~/payments/receipt.server";
import { cardLabel, moneySentence } from "~/payments/words";
import { formatUsd } from "~/payments/money";
import { invoiceRecord } from "~/payments/record";
import type { RecordLedger } from "~/payments/reconcile.server";

/** The invoice receipt's address, signed (~/payments/receipt.server.ts). */
const PURPOSE = "invoice-receipt";
export const RECEIPT_PATH = "/pay-invoice/receipt";

export const invoiceReceiptPath = (paymentId: number) => signedReceiptPath(RECEIPT_PATH, PURPOSE, paymentId);

/** The payment id a receipt URL (/pay-invoice/receipt/:payment?sig=…) names, when its signature is ours; otherwise null. */
export const verifiedPaymentId = (id: string | undefined, sig: string | null) => verifiedReceiptId(PURPOSE, id, sig);

/** "DP-7K3M-Q9": what the visitor quotes on the phone (random, never the row id; DECISIONS 32). */
export const newInvoicePaymentReference = () => randomReference("DP");
export const INVOICE_REFERENCE_PATTERN = /^DP-[0-9A-Z]{4}-[0-9A-Z]{2}$/;

export type InvoiceReceipt = {
  status: InvoicePaymentStatus;
  /** Null only for a row written by a machine on the code before references, during a rolling deploy. */
  reference: string | null;
  /** The day it was paid, company time: "November 26, 2026". */
  date: string;
  invoiceNumber: string;
  amount: string;
  brand: string | null;
  last4: string | null;
};

let dayFormat: Intl.DateTimeFormat | undefined;

/** A moment as the company's calendar names its day: "November 26, 2026" (America/Detroit, DECISIONS 14). */
export function paymentDay(at: Date): string {
  dayFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: COMPANY_TIME_ZONE,
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  return dayFormat.format(at);
}

export async function findInvoiceReceipt(db: DbOrTx, paymentId: number): Promise<InvoiceReceipt | null> {
  const [row] = await db
    .select({
      status: invoicePayments.status,
      reference: invoicePayments.reference,
      createdAt: invoicePayments.createdAt,
      invoiceNumber: invoicePayments.invoiceNumber,
      amountCents: invoicePayments.amountCents,
    })
    .from(invoicePayments)
    .where(eq(invoicePayments.paymentId, paymentId))
    .limit(1);
  if (!row) return null;
  const card = await cardOfCharge(db, paymentId);
  return {
    status: row.status,
    reference: row.reference,
    date: paymentDay(row.createdAt),
    invoiceNumber: row.invoiceNumber,
    amount: formatUsd(row.amountCents),
    brand: card.brand,
    last4: card.last4,
  };
}

/** "$250.50 charged to Visa ending in 4242 for invoice INV-1001." */
export function receiptLine(
  r: Pick<InvoiceReceipt, "amount" | "brand" | "last4" | "invoiceNumber">,
  verb = "charged",
): string {
  return `${r.amount} ${verb} to ${cardLabel(r.brand, r.last4)} for invoice ${r.invoiceNumber}.`;
}

/**
 * What a person looks for first on the receipt page and at the top of its mail, in this order:
 * the reference, the date, the invoice number and the amount (with the card it went on).
 */
export function receiptFacts(r: InvoiceReceipt): MailRow[] {
  const card = cardLabel(r.brand, r.last4);
  return [
    ...(r.reference ? [{ label: "Reference", value: r.reference }] : []),
    { label: "Date", value: r.date },
    { label: "Invoice number", value: r.invoiceNumber },
    r.status === "paid"
      ? { label: "Amount paid", value: `${r.amount}, charged to ${card}` }
      : { label: "Amount", value: `${r.amount} on ${card}, being confirmed with the card processor` },
  ];
}

/** An invoice payment stored while its answer was unknown, confirmed by the processor's record. */
/** An invoice payment stored while its answer was unknown, settled by the processor's record: the payer is told. */
export async function settlePendingInvoicePayment(
  tx: DbOrTx,
  invoicePaymentId: number,
  paid: boolean,
): Promise<boolean> {
  const [row] = await tx
    .update(invoicePayments)
    .set({ status: paid ? "paid" : "released" })
    .where(and(eq(invoicePayments.id, invoicePaymentId), eq(invoicePayments.status, "pending")))
    .returning();
  if (!row) return false;
  await mailPaymentResolved(tx, {
    to: row.email,
    name: row.name,
    what: `invoice ${row.invoiceNumber}`,
    outcome: paid ? "confirmed" : "released",
    money: paid ? moneySentence((await moneyOf(tx, invoiceRecord(row.id))).lines) : "Nothing was charged to your card.",
    next: paid
      ? "Thank you: the invoice is paid by this amount."
      : `The invoice is not paid. Please pay it again, or call us at ${company.phone.display}.`,
    source: { table: "invoice_payments", id: row.id },
  });
  return true;
}

/** What each invoice payment should have been paid (the payments audit): its amount. */
export async function expectedInvoicePayments(db: DbOrTx) {
  const rows = await db
    .select({
      id: invoicePayments.id,
      reference: invoicePayments.reference,
      amount: invoicePayments.amountCents,
      status: invoicePayments.status,
    })
    .from(invoicePayments);
  return rows.map((r) => ({
    subject: invoiceRecord(r.id),
    label: `invoice payment ${r.reference ?? `#${r.id}`}`,
    expectedCents: r.status === "released" ? 0 : r.amount,
  }));
}

/** What the ledger's reconciler and audit do with an invoice payment's rows. */
export const invoiceLedger: RecordLedger = {
  confirmed: (tx, id) => settlePendingInvoicePayment(tx, id, true),
  released: (tx, id) => settlePendingInvoicePayment(tx, id, false),
  expected: expectedInvoicePayments,
};
