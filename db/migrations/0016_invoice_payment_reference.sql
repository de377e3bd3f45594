-- An invoice payment's reference (issue 30 item 6, DECISIONS 32): what the receipt and its mail show and the visitor quotes
-- on the phone, random and never the row id. Nullable: a machine still on the old code during a rolling deploy writes none.
ALTER TABLE "invoice_payments" ADD COLUMN "reference" text;--> statement-breakpoint
-- Payments made before: a random reference of the same shape.
UPDATE "invoice_payments" SET "reference" = 'DP-' || upper(substr(md5(random()::text || "id"::text), 1, 4)) || '-' || upper(substr(md5(random()::text || "id"::text), 1, 2)) WHERE "reference" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_reference_idx" ON "invoice_payments" USING btree ("reference");
