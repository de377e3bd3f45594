import type { Database } from "@db/client.server";
import { bookingLedger } from "~/booking/change.server";
import { invoiceLedger } from "~/forms/invoice/receipt.server";
import { mailReconcileEvent } from "~/mail/staff-notices.server";
import { auditProcessor, auditSubjects, type Mismatch } from "~/payments/audit.server";
import type { PaymentGateway } from "~/payments/gateway";
import { paymentGateway } from "~/payments/gateway.server";
import type { ReconcileHooks, RecordLedgers } from "~/payments/reconcile.server";
import { orderLedger } from "~/shop/checkout/orders.server";

/**
 * The payments ledger, wired: each kind of record with the declaration its capability keeps
 * beside its own code (how the reconciler finishes or undoes its rows, what the audit expects of
 * them). app/payments/ knows no booking, order or invoice; only this map names them all, and a
 * kind of record added without its declaration does not typecheck.
 */
export const recordLedgers: RecordLedgers = { booking: bookingLedger, order: orderLedger, invoice: invoiceLedger };

/** What the reconciler calls: the records' ledgers, and the company told of what it settled. */
export const reconcileHooks: ReconcileHooks = { ledgers: recordLedgers, notify: mailReconcileEvent };

/**
 * The payments audit, all of it: the ledger against the processor's record
 * (app/payments/audit.server.ts) and every booking, order and invoice payment against its ledger
 * (each record's ledger says what it should have been paid). Run daily by the maintenance
 * (mismatches mailed to the company) and by `npm run payments:audit` (printed; exit 1 on any).
 */
export async function auditPayments(
  db: Database,
  { gateway = paymentGateway(db), since }: { gateway?: PaymentGateway; since?: Date } = {},
): Promise<Mismatch[]> {
  const expected = [];
  for (const ledger of Object.values(recordLedgers)) expected.push(...(await ledger.expected(db)));
  return [...(await auditProcessor(db, { gateway, since })), ...(await auditSubjects(db, expected))];
}
