CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"idempotency_key" text NOT NULL,
	"processor" text NOT NULL,
	"processor_transaction_id" text,
	"brand" text,
	"last4" text,
	"message" text,
	"reference_table" text,
	"reference_id" integer,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_currency_usd" CHECK ("payments"."currency" = 'USD'),
	CONSTRAINT "payments_purpose_known" CHECK ("payments"."purpose" in ('service', 'invoice', 'order')),
	CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('approved', 'declined', 'pending', 'voided', 'refunded', 'failed')),
	CONSTRAINT "payments_processor_known" CHECK ("payments"."processor" in ('sandbox', 'authorizenet')),
	CONSTRAINT "payments_last4_digits" CHECK ("payments"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "payments_approved_has_transaction" CHECK ("payments"."status" not in ('approved', 'voided', 'refunded') or "payments"."processor_transaction_id" is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_live_idx" ON "payments" USING btree ("idempotency_key") WHERE "payments"."status" not in ('declined', 'failed');--> statement-breakpoint
CREATE INDEX "payments_reference_idx" ON "payments" USING btree ("reference_table","reference_id");--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at");