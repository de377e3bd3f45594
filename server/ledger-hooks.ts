import { confirmPendingBooking, finishBookingRow, releasePendingBooking } from "~/booking/change.server";
import { settlePendingInvoicePayment } from "~/forms/invoice/receipt.server";
import { mailReconcileEvent } from "~/mail/staff-notices.server";
import type { ReconcileHooks } from "~/payments/reconcile.server";
import { settlePendingOrder } from "~/shop/checkout/orders.server";

/**
 * What each capability does when the reconciler settles a ledger row of its own (issue 36 item 4):
 * payments/ knows no booking, order or invoice; the server, which knows them all, hands it these.
 */
export const ledgerHooks: ReconcileHooks = {
  async confirmed(tx, row) {
    if (row.referenceId === null) return false;
    if (row.referenceTable === "service_requests") return confirmPendingBooking(tx, row.referenceId, row);
    if (row.referenceTable === "orders") return settlePendingOrder(tx, row.referenceId, row, true);
    if (row.referenceTable === "invoice_payments") return settlePendingInvoicePayment(tx, row.referenceId, true);
    return false;
  },
  async released(tx, row) {
    if (row.referenceId === null) return false;
    if (row.referenceTable === "service_requests") return releasePendingBooking(tx, row.referenceId, row);
    if (row.referenceTable === "orders") return settlePendingOrder(tx, row.referenceId, row, false);
    if (row.referenceTable === "invoice_payments") return settlePendingInvoicePayment(tx, row.referenceId, false);
    return false;
  },
  async gaveBack(tx, row, info) {
    return row.referenceTable === "service_requests" ? finishBookingRow(tx, row, info) : false;
  },
  notify: mailReconcileEvent,
};
