import { index, integer, jsonb, pgTable, serial, text } from "drizzle-orm/pg-core";

export type CustomFieldOption = { label: string; price: number };
export type CustomField = { name: string; options: CustomFieldOption[] };

/** Shop categories (SPEC §3 Category). 'All' is a pseudo-category and is not stored. */
export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
});

/** Shop catalogue (SPEC §3 Product). Money is stored in cents. */
export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    priceCents: integer("price_cents").notNull(),
    image: text("image").notNull(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    description: text("description").notNull().default(""),
    customFields: jsonb("custom_fields").$type<CustomField[]>().notNull().default([]),
    stock: integer("stock").notNull().default(0),
  },
  (t) => [index("products_category_idx").on(t.categoryId)],
);
