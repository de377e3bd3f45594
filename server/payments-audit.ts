import type { Database } from "@db/client.server";
import { expectedBookingPayments } from "~/booking/change.server";
import { expectedInvoicePayments } from "~/forms/invoice/receipt.server";
import { auditProcessor, auditSubjects, type Mismatch } from "~/payments/audit.server";
import type { PaymentGateway } from "~/payments/gateway";
import { paymentGateway } from "~/payments/gateway.server";
import { expectedOrderPayments } from "~/shop/checkout/orders.server";

/**
 * The payments audit (issue 36 item 6), all of it: the ledger against the processor's record
 * (app/payments/audit.server.ts) and every booking, order and invoice payment against its ledger
 * (each capability says what its records should have been paid). Run daily by the maintenance
 * (mismatches mailed to the company) and by `npm run payments:audit` (printed; exit 1 on any).
 */
export async function auditPayments(
  db: Database,
  { gateway = paymentGateway(db), since }: { gateway?: PaymentGateway; since?: Date } = {},
): Promise<Mismatch[]> {
  const expected = [
    ...(await expectedBookingPayments(db)),
    ...(await expectedOrderPayments(db)),
    ...(await expectedInvoicePayments(db)),
  ];
  return [...(await auditProcessor(db, { gateway, since })), ...(await auditSubjects(db, expected))];
}
