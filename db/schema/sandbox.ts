import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The sandbox card processor's own books (PAYMENT_GATEWAY=sandbox, issue 36 item 5): what a real
 * processor keeps on its side. The site never reads this table except through the gateway
 * interface (app/payments/sandbox.server.ts); `npm run payments:audit` compares the ledger with it
 * the way it compares the ledger with Authorize.net's look-ups. Two instances on one database
 * share it, as they would share a real processor.
 *
 * One row per transaction the processor made: a charge (authorize and capture; a declined charge is
 * kept too, as Authorize.net keeps its declined transactions), a void of an unsettled charge, a
 * refund of a settled one. A void or refund the processor refuses leaves no row (it answers an
 * error, no transaction). Ids are `sbx_` and 24 random hex digits. A charge or refund settles at
 * `settles_at`: the day's cut-off after it was made (the next midnight in America/Detroit, or at
 * once with SANDBOX_SETTLEMENT=immediate); a void works before it, a refund after. Refunds of a
 * charge never add up to more than its amount: the refund's check and insert hold the charge's row
 * locked. Never a card number or CVC: only the brand and last four digits.
 */
export const sandboxTransactions = pgTable(
  "sandbox_transactions",
  {
    id: text("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** charge | void | refund */
    type: text("type").notNull(),
    /** approved | declined | voided (a charge, once a void of it is approved) | review (a charge held for review). */
    status: text("status").notNull(),
    /** The reference the site set on the request (its ledger row), as Authorize.net's invoice number. */
    reference: text("reference"),
    /** For a void or a refund: the charge it acts on. A void's amount is the charge's. */
    parentId: text("parent_id"),
    amountCents: integer("amount_cents").notNull(),
    /**
     * A charge or refund: when it settles (the day's cut-off after it was made); a charge held for
     * review, once decided: the cut-off after the decision. Null for voids, declines and held charges
     * (their batch's cut-off is the rule's for `created_at`; a held charge is in no batch).
     */
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
