import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { payments } from "./payments";

/**
 * SPEC §3 Invoice payment (issue 16 item 5): one row per invoice paid (or
 * being confirmed) through /pay-invoice or /api/store/pay-invoice/submit.
 * Written in the submission's transaction only after the processor answered
 * (app/forms/pipeline.server.ts, the paid step): 'paid' when it approved,
 * 'pending' when its answer is unknown (staff confirm it by hand; the visitor
 * was told so). A declined card writes no row here, only its payments row.
 *
 * The amount is the server's reading of the visitor's invoice_payment_amount,
 * in integer cents. Never a card number or CVC: the card lives on in the
 * referenced payments row as brand and last four only.
 */
export const INVOICE_PAYMENT_STATUSES = ["paid", "pending", "released"] as const;
export type InvoicePaymentStatus = (typeof INVOICE_PAYMENT_STATUSES)[number];

export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** What the visitor reads on the receipt and quotes on the phone (DP-7K3M-Q9): random, never the row id. */
    reference: text("reference"),
    status: text("status").$type<InvoicePaymentStatus>().notNull(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    invoiceNumber: text("invoice_number").notNull(),
    amountCents: integer("amount_cents").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    address: text("address").notNull(),
    address2: text("address_2"),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    cardHolder: text("card_holder").notNull(),
    clientIp: text("client_ip"),
  },
  (t) => [
    // One invoice row per payment: a second store of the same charge fails whole.
    uniqueIndex("invoice_payments_payment_idx").on(t.paymentId),
    uniqueIndex("invoice_payments_reference_idx").on(t.reference),
    index("invoice_payments_invoice_idx").on(t.invoiceNumber),
    check("invoice_payments_amount_positive", sql`${t.amountCents} > 0`),
    check("invoice_payments_status_known", sql`${t.status} in ('paid', 'pending', 'released')`),
  ],
);
