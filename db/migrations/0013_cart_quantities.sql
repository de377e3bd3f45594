-- Cart lines have quantities (DECISIONS 34, docs/decisions/058-cart-quantities.md). Rows written before
-- are one unit each (DEFAULT 1). The lines of one cart that were the same product with the same options
-- (added several times) become one line of that many units: the oldest is kept, the others deleted.
-- order_lines.price_cents stays one unit's price (not renamed: machines still on the old code during a
-- rolling deploy keep writing it); line_total_cents is price_cents × quantity, kept by Postgres.
ALTER TABLE "cart_items" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "line_total_cents" integer GENERATED ALWAYS AS (price_cents * quantity) STORED;--> statement-breakpoint
WITH "lines" AS (
	SELECT "id",
		row_number() OVER (PARTITION BY "cart_id", "product_id", "selected_options" ORDER BY "created_at", "id") AS "rank",
		count(*) OVER (PARTITION BY "cart_id", "product_id", "selected_options") AS "units"
	FROM "cart_items"
)
UPDATE "cart_items" SET "quantity" = "lines"."units"
FROM "lines" WHERE "cart_items"."id" = "lines"."id" AND "lines"."rank" = 1 AND "lines"."units" > 1;--> statement-breakpoint
DELETE FROM "cart_items" WHERE "id" IN (
	SELECT "id" FROM (
		SELECT "id", row_number() OVER (PARTITION BY "cart_id", "product_id", "selected_options" ORDER BY "created_at", "id") AS "rank"
		FROM "cart_items"
	) AS "ranked" WHERE "rank" > 1
);--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_quantity_positive" CHECK ("cart_items"."quantity" > 0);--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_quantity_positive" CHECK ("order_lines"."quantity" > 0);
