ALTER TABLE "payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK ("payments"."refunded_cents" between 0 and "payments"."amount_cents");--> statement-breakpoint
-- A payment refunded in full before this column: all of it was given back.
UPDATE "payments" SET "refunded_cents" = "amount_cents" WHERE "status" = 'refunded';
