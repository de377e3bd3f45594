ALTER TABLE "payments" DROP CONSTRAINT "payments_refunded_within_amount";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_known";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_approved_has_transaction";--> statement-breakpoint
DROP INDEX "payments_idempotency_key_live_idx";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "state" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_parent_idx" ON "payments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("id") WHERE "payments"."state" in ('requested', 'unknown') or ("payments"."state" = 'succeeded' and "payments"."resolved_at" is null);--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_live_idx" ON "payments" USING btree ("idempotency_key") WHERE "payments"."state" <> 'declined';--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refunded_cents";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_known" CHECK ("payments"."kind" in ('charge', 'void', 'refund'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_state_known" CHECK ("payments"."state" in ('requested', 'succeeded', 'declined', 'unknown'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_parent_by_kind" CHECK (("payments"."kind" = 'charge') = ("payments"."parent_id" is null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_charge_has_transaction" CHECK ("payments"."kind" <> 'charge' or "payments"."state" <> 'succeeded' or "payments"."processor_transaction_id" is not null);