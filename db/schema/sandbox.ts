import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The sandbox card processor's own books (PAYMENT_GATEWAY=sandbox, issue 36 item 5): what a real
 * processor keeps on its side. The site never reads this table except through the gateway
 * interface (app/payments/sandbox.server.ts); `npm run payments:audit` compares the ledger with it
 * the way it compares the ledger with Authorize.net's look-ups. Two instances on one database
 * share it, as they would share a real processor.
 *
 * One row per transaction the processor accepted or refused: a charge (authorize and capture), a
 * void of an unsettled charge, a refund of a settled one. A charge settles at `settles_at` (the
 * day's cut-off after it was made): a void works before, a refund after.
 */
export const sandboxTransactions = pgTable(
  "sandbox_transactions",
  {
    id: text("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** charge | void | refund */
    type: text("type").notNull(),
    /** approved | declined; a charge becomes voided when a void of it is approved. */
    status: text("status").notNull(),
    /** The reference the site set on the request (its ledger row), as Authorize.net's invoice number. */
    reference: text("reference"),
    /** For a void or a refund: the charge it acts on. */
    parentId: text("parent_id"),
    amountCents: integer("amount_cents").notNull(),
    /** A charge: when it settles (the day's cut-off after it was made). */
    settlesAt: timestamp("settles_at", { withTimezone: true }),
    brand: text("brand"),
    last4: text("last4"),
    message: text("message"),
  },
  (t) => [
    index("sandbox_transactions_reference_idx").on(t.reference),
    index("sandbox_transactions_parent_idx").on(t.parentId),
  ],
);
