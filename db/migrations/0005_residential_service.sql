CREATE TABLE "service_slot_holds" (
	"key" text PRIMARY KEY NOT NULL,
	"service_date" date NOT NULL,
	"service_time" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "payment_id" integer;--> statement-breakpoint
CREATE INDEX "service_slot_holds_slot_idx" ON "service_slot_holds" USING btree ("service_date","service_time","expires_at");--> statement-breakpoint
CREATE INDEX "service_requests_slot_idx" ON "service_requests" USING btree ("service_date","service_time") WHERE "service_requests"."kind" = 'residential';