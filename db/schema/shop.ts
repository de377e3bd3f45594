import { index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";

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

/**
 * A visitor's cart (DECISIONS 21): its random id is the value of the signed,
 * http-only cart cookie; no login. Made on the first add, never on a visit.
 */
export const carts = pgTable("carts", {
  id: uuid("id").primaryKey().defaultRandom(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One line of a cart: the product and the option chosen for each of its
 * custom fields (field name → option label). No price: it is recomputed from
 * the catalogue whenever the cart is read (DECISIONS 12).
 */
export const cartItems = pgTable(
  "cart_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    selectedOptions: jsonb("selected_options").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cart_items_cart_idx").on(t.cartId, t.createdAt)],
);
