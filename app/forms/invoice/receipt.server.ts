import { eq } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { invoicePayments, payments, type InvoicePaymentStatus } from "@db/schema";
import { formHmac, safeEqual } from "~/lib/crypto.server";
import { formatUsd } from "~/payments/money";

/**
 * The invoice receipt's address (redirect-after-post, issue 16 item 6): the
 * payment's id signed with formHmac, so the page answers only the visitor who
 * was sent there; another number with the same signature is not found.
 */
const PURPOSE = "invoice-receipt";
export const RECEIPT_PATH = "/pay-invoice/receipt";

export function invoiceReceiptPath(paymentId: number): string {
  return `${RECEIPT_PATH}/${paymentId}?${new URLSearchParams({ sig: formHmac(PURPOSE, String(paymentId)) })}`;
}

/** The payment id a receipt URL (/pay-invoice/receipt/:payment?sig=…) names, when its signature is ours; otherwise null. */
export function verifiedPaymentId(id: string | undefined, sig: string | null): number | null {
  if (!id || !sig) return null;
  if (!/^[1-9]\d{0,9}$/.test(id)) return null;
  return safeEqual(sig, formHmac(PURPOSE, id)) ? Number(id) : null;
}

export type InvoiceReceipt = {
  status: InvoicePaymentStatus;
  invoiceNumber: string;
  amount: string;
  brand: string | null;
  last4: string | null;
};

export async function findInvoiceReceipt(db: DbOrTx, paymentId: number): Promise<InvoiceReceipt | null> {
  const [row] = await db
    .select({
      status: invoicePayments.status,
      invoiceNumber: invoicePayments.invoiceNumber,
      amountCents: invoicePayments.amountCents,
      brand: payments.brand,
      last4: payments.last4,
    })
    .from(invoicePayments)
    .innerJoin(payments, eq(payments.id, invoicePayments.paymentId))
    .where(eq(invoicePayments.paymentId, paymentId))
    .limit(1);
  if (!row) return null;
  return { status: row.status, invoiceNumber: row.invoiceNumber, amount: formatUsd(row.amountCents), brand: row.brand, last4: row.last4 };
}

/** "$250.50 charged to Visa ending in 4242 for invoice INV-1001." */
export function receiptLine(r: Pick<InvoiceReceipt, "amount" | "brand" | "last4" | "invoiceNumber">, verb = "charged"): string {
  const card = r.brand && r.last4 ? `${r.brand} ending in ${r.last4}` : r.last4 ? `card ending in ${r.last4}` : "your card";
  return `${r.amount} ${verb} to ${card} for invoice ${r.invoiceNumber}.`;
}
