import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Card payments (issue 16): one row per attempt to charge a card, written
 * before the processor is asked (status 'pending') and completed with its
 * answer (app/payments/payments.server.ts).
 *
 * Never the card number or the CVC (DECISIONS 15): only the processor's
 * transaction id, the brand and the last four digits, which the checks below
 * hold to four digits.
 *
 * The idempotency key is unique among the attempts that took, or may have
 * taken, money: every status except 'declined' and 'failed'. So a second
 * attempt with the same key can never charge again while the first one is
 * pending, approved, voided or refunded, yet a visitor whose card was declined
 * can pay with another card from the same form (whose key is kept when a
 * refused form is shown again). Each declined attempt stays as its own row.
 */
export const PAYMENT_PURPOSES = ["service", "invoice", "order"] as const;
export const PAYMENT_STATUSES = ["approved", "declined", "pending", "voided", "refunded", "failed"] as const;
export const PAYMENT_PROCESSORS = ["sandbox", "authorizenet"] as const;

export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentProcessor = (typeof PAYMENT_PROCESSORS)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the processor's answer (or its absence) was recorded, or a void/refund changed the status. */
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    amountCents: integer("amount_cents").notNull(),
    /** Given back so far by partial refunds (a booking moved to a cheaper window); the whole amount once refunded. */
    refundedCents: integer("refunded_cents").notNull().default(0),
    currency: text("currency").notNull().default("USD"),
    purpose: text("purpose").$type<PaymentPurpose>().notNull(),
    status: text("status").$type<PaymentStatus>().notNull().default("pending"),
    idempotencyKey: text("idempotency_key").notNull(),
    processor: text("processor").$type<PaymentProcessor>().notNull(),
    processorTransactionId: text("processor_transaction_id"),
    brand: text("brand"),
    last4: text("last4"),
    /** The processor's (or our) message for this outcome, as shown to the visitor. */
    message: text("message"),
    /** What the payment is for: a row of another table (e.g. service_requests 12). */
    referenceTable: text("reference_table"),
    referenceId: integer("reference_id"),
  },
  (t) => [
    // ON CONFLICT (idempotency_key) WHERE status NOT IN ('declined','failed') names this index.
    uniqueIndex("payments_idempotency_key_live_idx")
      .on(t.idempotencyKey)
      .where(sql`${t.status} not in ('declined', 'failed')`),
    index("payments_reference_idx").on(t.referenceTable, t.referenceId),
    index("payments_created_idx").on(t.createdAt),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
    check("payments_refunded_within_amount", sql`${t.refundedCents} between 0 and ${t.amountCents}`),
    check("payments_currency_usd", sql`${t.currency} = 'USD'`),
    check("payments_purpose_known", sql`${t.purpose} in (${inList(PAYMENT_PURPOSES)})`),
    check("payments_status_known", sql`${t.status} in (${inList(PAYMENT_STATUSES)})`),
    check("payments_processor_known", sql`${t.processor} in (${inList(PAYMENT_PROCESSORS)})`),
    check("payments_last4_digits", sql`${t.last4} ~ '^[0-9]{4}$'`),
    // A payment that took money can always be found at the processor.
    check(
      "payments_approved_has_transaction",
      sql`${t.status} not in ('approved', 'voided', 'refunded') or ${t.processorTransactionId} is not null`,
    ),
  ],
);
