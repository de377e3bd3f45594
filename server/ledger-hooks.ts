import { confirmPendingBooking, finishBookingRow, releasePendingBooking } from "~/booking/change.server";
import { confirmPendingInvoicePayment } from "~/forms/invoice/receipt.server";
import { mailReconcileEvent } from "~/mail/staff-notices.server";
import type { ReconcileHooks } from "~/payments/reconcile.server";
import { settlePendingOrder } from "~/shop/checkout/orders.server";

/**
 * What each capability does when the reconciler settles a ledger row of its own (issue 36 item 4):
 * payments/ knows no booking, order or invoice; the server, which knows them all, hands it these.
 */
export const ledgerHooks: ReconcileHooks = {
  async confirmed(tx, row) {
    if (row.referenceId === null) return;
    if (row.referenceTable === "service_requests") await confirmPendingBooking(tx, row.referenceId);
    else if (row.referenceTable === "orders") await settlePendingOrder(tx, row.referenceId, true);
    else if (row.referenceTable === "invoice_payments") await confirmPendingInvoicePayment(tx, row.referenceId);
  },
  async released(tx, row) {
    if (row.referenceId === null) return;
    if (row.referenceTable === "service_requests") await releasePendingBooking(tx, row.referenceId);
    else if (row.referenceTable === "orders") await settlePendingOrder(tx, row.referenceId, false);
    // An invoice payment stays pending: the company, mailed, settles it with the customer.
  },
  async gaveBack(tx, row, info) {
    return row.referenceTable === "service_requests" ? finishBookingRow(tx, row, info) : false;
  },
  notify: mailReconcileEvent,
};
