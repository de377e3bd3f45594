import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The payments ledger (issue 36, DECISIONS 35): one row per request to the card processor —
 * a charge, a void of a charge, a refund of (part of) a charge — committed BEFORE the request is
 * sent, and completed with the processor's answer. Only `app/payments/` reads or writes it;
 * bookings, orders, invoices, receipts and mails ask it through functions.
 *
 * What a charge has taken, voided, refunded and has pending is a sum of its rows (the charge and
 * the voids and refunds whose `parent_id` is it), never a copied column.
 *
 * `state` is the processor's side of a row:
 *   requested  committed, sent or about to be sent, no answer recorded (a process that died
 *              mid-call leaves it so: the reconciler asks the processor)
 *   succeeded  the processor did it (money taken, or given back)
 *   declined   the processor refused, or the request never reached it: nothing moved
 *   unknown    an answer came that says nothing for sure (a timeout): the reconciler asks again
 *
 * `resolved_at` is the business side: when what the row serves (`intent`: the booking, the move,
 * the cancel, the checkout, the invoice; or the reconciler's undo of a charge nothing stood on)
 * was committed, or the charge was given back because it never was. A charge that succeeded and
 * is not resolved is money with nothing standing on it yet: the reconciler finishes or undoes it.
 *
 * Never the card number or the CVC (DECISIONS 15): only the processor's transaction id, the
 * brand and the last four digits.
 *
 * The idempotency key is unique among the rows that moved, or may have moved, money (every state
 * but 'declined'): a retried request finds the earlier row and never sends again, while a
 * declined card can be followed by another from the same form.
 */
export const PAYMENT_PURPOSES = ["service", "invoice", "order"] as const;
export const PAYMENT_PROCESSORS = ["sandbox", "authorizenet"] as const;
export const LEDGER_KINDS = ["charge", "void", "refund"] as const;
export const LEDGER_STATES = ["requested", "succeeded", "declined", "unknown"] as const;
export const LEDGER_INTENTS = ["book", "move", "cancel", "checkout", "invoice", "undo"] as const;

export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export type PaymentProcessor = (typeof PAYMENT_PROCESSORS)[number];
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export type LedgerState = (typeof LEDGER_STATES)[number];
export type LedgerIntent = (typeof LEDGER_INTENTS)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the processor's answer (or its absence) was last recorded. */
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    kind: text("kind").$type<LedgerKind>().notNull().default("charge"),
    state: text("state").$type<LedgerState>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    purpose: text("purpose").$type<PaymentPurpose>().notNull(),
    intent: text("intent").$type<LedgerIntent>(),
    /** A void or a refund: the charge it acts on. */
    parentId: integer("parent_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    processor: text("processor").$type<PaymentProcessor>().notNull(),
    processorTransactionId: text("processor_transaction_id"),
    brand: text("brand"),
    last4: text("last4"),
    /** The processor's (or our) message for this outcome, as shown to the visitor. */
    message: text("message"),
    /** The business record this row serves: a row of another table (service_requests 12, orders 3, invoice_payments 7). */
    referenceTable: text("reference_table"),
    referenceId: integer("reference_id"),
    /** When what this row serves was committed (or, for a charge nothing stood on, given back). */
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /**
     * The change this row belongs to (a move's render, a cancel, an undo): a change's rows are
     * found by this exact value, never by a pattern over keys a visitor helped make.
     */
    changeKey: text("change_key"),
    /** The sender holding the row (a fencing token): only its answer completes the row. */
    leaseToken: text("lease_token"),
    /** Until when that holder may still answer; after it, the reconciler may take the row over. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** How many times a sender claimed the row to send it (0: never sent). */
    sends: integer("sends").notNull().default(0),
    /** A charge: digest of every field that set its amount (a re-post of its key must match it). */
    pricedDigest: text("priced_digest"),
    /**
     * An answer that came after the row was decided (its holder's lease was gone): recorded as
     * what it is, never written over the decision; the reconciler acts on the difference.
     */
    lateStatus: text("late_status").$type<"approved" | "declined" | "unknown">(),
    lateTransactionId: text("late_transaction_id"),
    lateAt: timestamp("late_at", { withTimezone: true }),
    /** When the reconciler acted on the late answer (gave the money back, or found nothing to do). */
    lateSettledAt: timestamp("late_settled_at", { withTimezone: true }),
    /** When the visitor was told this row's outcome (a page or a mail): a pending payment resolved later must be. */
    toldAt: timestamp("told_at", { withTimezone: true }),
  },
  (t) => [
    // ON CONFLICT (idempotency_key) WHERE state <> 'declined' names this index.
    uniqueIndex("payments_idempotency_key_live_idx")
      .on(t.idempotencyKey)
      .where(sql`${t.state} <> 'declined'`),
    // A change's rows by the prefix of their keys (`idempotency_key like 'undo:12:%'`: the reconciler's
    // undo and finishes, app/payments/give-back.server.ts resolveRows, ledger.server.ts rowsOfChange).
    // text_pattern_ops: a LIKE prefix uses it whatever the database's collation (the unique index above
    // serves it only under the C collation, and only for live rows); docs/decisions/073-background-statements-use-indexes.md.
    index("payments_idempotency_key_prefix_idx").on(t.idempotencyKey.op("text_pattern_ops")),
    index("payments_reference_idx").on(t.referenceTable, t.referenceId),
    index("payments_change_key_idx").on(t.changeKey),
    index("payments_late_open_idx")
      .on(t.id)
      .where(sql`${t.lateAt} is not null and ${t.lateSettledAt} is null`),
    index("payments_parent_idx").on(t.parentId),
    index("payments_created_idx").on(t.createdAt),
    // The reconciler's work list: rows whose answer or business side is still open. Partial, so it
    // stays as small as the work however many years of history the table holds.
    index("payments_open_idx")
      .on(t.id)
      .where(sql`${t.state} in ('requested', 'unknown') or (${t.state} = 'succeeded' and ${t.resolvedAt} is null)`),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
    check("payments_currency_usd", sql`${t.currency} = 'USD'`),
    check("payments_purpose_known", sql`${t.purpose} in (${inList(PAYMENT_PURPOSES)})`),
    check("payments_kind_known", sql`${t.kind} in (${inList(LEDGER_KINDS)})`),
    check("payments_state_known", sql`${t.state} in (${inList(LEDGER_STATES)})`),
    check("payments_processor_known", sql`${t.processor} in (${inList(PAYMENT_PROCESSORS)})`),
    check("payments_last4_digits", sql`${t.last4} ~ '^[0-9]{4}$'`),
    // A void or a refund acts on a charge; a charge acts on nothing.
    check("payments_parent_by_kind", sql`(${t.kind} = 'charge') = (${t.parentId} is null)`),
    // A charge that took money can always be found at the processor.
    check(
      "payments_charge_has_transaction",
      sql`${t.kind} <> 'charge' or ${t.state} <> 'succeeded' or ${t.processorTransactionId} is not null`,
    ),
  ],
);
