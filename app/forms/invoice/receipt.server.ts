import { eq } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { invoicePayments, payments, type InvoicePaymentStatus } from "@db/schema";
import { cardLabel, signedReceiptPath, verifiedReceiptId } from "~/payments/receipt.server";
import { formatUsd } from "~/payments/money";

/** The invoice receipt's address, signed (~/payments/receipt.server.ts). */
const PURPOSE = "invoice-receipt";
export const RECEIPT_PATH = "/pay-invoice/receipt";

export const invoiceReceiptPath = (paymentId: number) => signedReceiptPath(RECEIPT_PATH, PURPOSE, paymentId);

/** The payment id a receipt URL (/pay-invoice/receipt/:payment?sig=…) names, when its signature is ours; otherwise null. */
export const verifiedPaymentId = (id: string | undefined, sig: string | null) => verifiedReceiptId(PURPOSE, id, sig);

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
  return {
    status: row.status,
    invoiceNumber: row.invoiceNumber,
    amount: formatUsd(row.amountCents),
    brand: row.brand,
    last4: row.last4,
  };
}

/** "$250.50 charged to Visa ending in 4242 for invoice INV-1001." */
export function receiptLine(
  r: Pick<InvoiceReceipt, "amount" | "brand" | "last4" | "invoiceNumber">,
  verb = "charged",
): string {
  return `${r.amount} ${verb} to ${cardLabel(r.brand, r.last4)} for invoice ${r.invoiceNumber}.`;
}
