CREATE TABLE "sandbox_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"reference" text,
	"parent_id" text,
	"amount_cents" integer NOT NULL,
	"settles_at" timestamp with time zone,
	"brand" text,
	"last4" text,
	"message" text
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "kind" text DEFAULT 'charge' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "intent" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sandbox_transactions_reference_idx" ON "sandbox_transactions" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "sandbox_transactions_parent_idx" ON "sandbox_transactions" USING btree ("parent_id");--> statement-breakpoint
-- Issue 36: every payments row becomes a ledger entry. What was one row per charge with a copied
-- status and refunded amount becomes the charge (same id: bookings, orders and invoices keep
-- pointing at it) plus one entry per void or refund that acted on it. The old `status` column,
-- dropped by the next migration, says 'pending' on these new rows only to pass its old checks.
UPDATE "payments" SET
  "state" = CASE
    WHEN "status" IN ('approved', 'voided', 'refunded') THEN 'succeeded'
    WHEN "status" IN ('declined', 'failed') THEN 'declined'
    WHEN "updated_at" IS NULL THEN 'requested'
    ELSE 'unknown' END,
  "intent" = CASE
    WHEN "purpose" = 'order' THEN 'checkout'
    WHEN "purpose" = 'invoice' THEN 'invoice'
    WHEN "idempotency_key" LIKE 'reschedule:%' THEN 'move'
    ELSE 'book' END,
  "resolved_at" = CASE
    WHEN "status" IN ('declined', 'failed') THEN coalesce("updated_at", "created_at")
    WHEN "reference_table" = 'reconciliation' THEN coalesce("updated_at", "created_at")
    WHEN "reference_id" IS NOT NULL THEN coalesce("updated_at", "created_at")
    ELSE NULL END;--> statement-breakpoint
INSERT INTO "payments" ("created_at", "updated_at", "amount_cents", "currency", "purpose", "status", "idempotency_key",
  "processor", "processor_transaction_id", "brand", "last4", "reference_table", "reference_id", "kind", "state",
  "parent_id", "intent", "resolved_at")
SELECT coalesce("updated_at", "created_at"), coalesce("updated_at", "created_at"), "amount_cents", 'USD', "purpose", 'pending',
  'void:' || "id", "processor", "processor_transaction_id", "brand", "last4",
  CASE WHEN "reference_table" = 'reconciliation' THEN NULL ELSE "reference_table" END,
  CASE WHEN "reference_table" = 'reconciliation' THEN NULL ELSE "reference_id" END,
  'void', 'succeeded', "id", CASE WHEN "reference_table" = 'reconciliation' THEN 'undo' ELSE 'cancel' END,
  coalesce("updated_at", "created_at")
FROM "payments" WHERE "status" = 'voided' AND "kind" = 'charge';--> statement-breakpoint
INSERT INTO "payments" ("created_at", "updated_at", "amount_cents", "currency", "purpose", "status", "idempotency_key",
  "processor", "processor_transaction_id", "brand", "last4", "reference_table", "reference_id", "kind", "state",
  "parent_id", "intent", "resolved_at")
SELECT coalesce("updated_at", "created_at"), coalesce("updated_at", "created_at"), "refunded_cents", 'USD', "purpose", 'pending',
  'refund:' || "id", "processor", NULL, "brand", "last4",
  CASE WHEN "reference_table" = 'reconciliation' THEN NULL ELSE "reference_table" END,
  CASE WHEN "reference_table" = 'reconciliation' THEN NULL ELSE "reference_id" END,
  'refund', 'succeeded', "id",
  CASE WHEN "reference_table" = 'reconciliation' THEN 'undo' WHEN "status" = 'refunded' THEN 'cancel' ELSE 'move' END,
  coalesce("updated_at", "created_at")
FROM "payments" WHERE "refunded_cents" > 0 AND "kind" = 'charge';--> statement-breakpoint
UPDATE "payments" SET "reference_table" = NULL, "reference_id" = NULL WHERE "reference_table" = 'reconciliation';
