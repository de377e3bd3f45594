ALTER TABLE "invoice_payments" DROP CONSTRAINT "invoice_payments_status_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stock_returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "change_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "lease_token" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sends" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "priced_digest" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "late_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "late_transaction_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "late_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "late_settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "told_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_change_key_idx" ON "payments" USING btree ("change_key");--> statement-breakpoint
CREATE INDEX "payments_late_open_idx" ON "payments" USING btree ("id") WHERE "payments"."late_at" is not null and "payments"."late_settled_at" is null;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_status_known" CHECK ("invoice_payments"."status" in ('paid', 'pending', 'released'));--> statement-breakpoint
UPDATE "payments" SET "change_key" = CASE WHEN "kind" = 'charge' THEN "idempotency_key" ELSE regexp_replace("idempotency_key", ':[0-9]+(#[0-9]+)?$', '') END;--> statement-breakpoint
UPDATE "payments" SET "told_at" = coalesce("resolved_at", "updated_at", "created_at") WHERE "state" IN ('succeeded', 'declined');
