CREATE TABLE "booking_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_request_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"from_date" date,
	"from_time" text,
	"to_date" date,
	"to_time" text,
	"amount_cents" integer,
	"payment_id" integer,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "manage_token_hash" text;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "booking_status" text;--> statement-breakpoint
-- Bookings made before references existed: booked, with a random reference (no manage link: its token was never made).
UPDATE "service_requests" SET "booking_status" = 'booked' WHERE "kind" = 'residential';--> statement-breakpoint
UPDATE "service_requests" SET "reference" = 'DV-' || upper(substr(md5(random()::text || "id"::text), 1, 4)) || '-' || upper(substr(md5(random()::text || "id"::text), 1, 2)) WHERE "kind" = 'residential' AND "reference" IS NULL;--> statement-breakpoint
CREATE INDEX "booking_events_booking_idx" ON "booking_events" USING btree ("service_request_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_reference_idx" ON "service_requests" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_manage_token_idx" ON "service_requests" USING btree ("manage_token_hash");