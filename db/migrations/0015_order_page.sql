-- An order's reference, its page's token and where it stands (DECISIONS 32, docs/decisions/061-order-page.md), and
-- where to install (DECISIONS 34). `order_status` is set by staff; `status` stays the payment's. Columns a machine still on
-- the old code during a rolling deploy does not write are nullable or have a default that is right for its orders (no
-- installation address was asked: the billing address is where to install).
ALTER TABLE "orders" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "order_page_token_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "order_status" text DEFAULT 'received' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "installation_same_as_billing" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "installation_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "installation_city" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "installation_state" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "installation_zip" text;--> statement-breakpoint
-- Orders placed before: installed at their billing address, with a random reference (no page: its token was never made).
UPDATE "orders" SET "installation_address" = "address", "installation_city" = "city", "installation_state" = "state", "installation_zip" = "zip" WHERE "installation_address" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "reference" = 'DO-' || upper(substr(md5(random()::text || "id"::text), 1, 4)) || '-' || upper(substr(md5(random()::text || "id"::text), 1, 2)) WHERE "reference" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference_idx" ON "orders" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_page_token_idx" ON "orders" USING btree ("order_page_token_hash");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_order_status_known" CHECK ("orders"."order_status" in ('received', 'scheduled', 'installed', 'cancelled'));