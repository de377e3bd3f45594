import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { payments } from "./payments";

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
export const carts = pgTable(
  "carts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The hourly prune finds the carts whose cookie has expired by it (docs/decisions/073-background-statements-use-indexes.md).
  (t) => [index("carts_created_idx").on(t.createdAt)],
);

/**
 * One line of a cart: the product, the option chosen for each of its custom
 * fields (field name → option label) and how many (DECISIONS 34: the same
 * product with the same options is one line; adding it again raises
 * `quantity`, never beyond the product's stock). No price: it is recomputed
 * from the catalogue whenever the cart is read (DECISIONS 12). Not unique in
 * the database: adds to one cart take turns on its row lock, and a machine
 * still running the code of before quantities (a rolling deploy) must not
 * fail its add (docs/decisions/058-cart-quantities.md).
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
    /** Units of this product with these options (1 for the lines written before quantities). */
    quantity: integer("quantity").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("cart_items_cart_idx").on(t.cartId, t.createdAt),
    check("cart_items_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * A placed order (issue 17 item 5): written in the same transaction as its
 * lines, the stock taken, the emptied cart and its e-mails, after the card
 * was charged (app/shop/checkout/handle.server.ts). `cart_id` is the cart
 * cookie that placed it: /order-confirmation shows the order to that cookie
 * only (DECISIONS 21). No foreign key to carts: an order is a business record
 * and outlives its cart. Never a card number or CVC: the brand and last four.
 * The buyer follows it at /order/{token} (DECISIONS 32: its reference, its
 * lines, the addresses, `order_status`).
 */
export const ORDER_STATUSES = ["paid", "pending"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Where an order is after the payment (`order_status`), set by staff in Drizzle Studio and shown on
 * the order's page (/order/{token}): received (every new order), scheduled (the installation day
 * is agreed), installed, cancelled. `status` beside it is the payment's (paid, pending).
 */
export const ORDER_PROGRESS = ["received", "scheduled", "installed", "cancelled"] as const;
export type OrderProgress = (typeof ORDER_PROGRESS)[number];

export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    cartId: uuid("cart_id").notNull(),
    /** 'paid', or 'pending' while the processor's answer is unknown (never called paid). */
    status: text("status").$type<OrderStatus>().notNull(),
    totalCents: integer("total_cents").notNull(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    page: text("page"),
    clientIp: text("client_ip"),
    /** The short reference the buyer and staff use (DO-7K3M-Q9): random, never the row id. Null only for orders placed before it existed. */
    reference: text("reference"),
    /** SHA-256 of the order page's token (/order/{token}); the token itself is only in the buyer's mail and browser. */
    orderPageTokenHash: text("order_page_token_hash"),
    /** Where the order stands for staff: received, scheduled, installed, cancelled (set in Studio). */
    orderStatus: text("order_status").$type<OrderProgress>().notNull().default("received"),
    /** A pending order released unpaid: when its units went back to stock (in the release's transaction). */
    stockReturnedAt: timestamp("stock_returned_at", { withTimezone: true }),
    /** Every price includes installation (DECISIONS 34): whether the buyer said to install at the billing address. */
    installationSameAsBilling: boolean("installation_same_as_billing").notNull().default(true),
    /** Where to install: always filled (the billing address copied when it is the same); null only for orders of before. */
    installationAddress: text("installation_address"),
    installationCity: text("installation_city"),
    installationState: text("installation_state"),
    installationZip: text("installation_zip"),
  },
  (t) => [
    index("orders_cart_idx").on(t.cartId),
    index("orders_payment_idx").on(t.paymentId),
    uniqueIndex("orders_reference_idx").on(t.reference),
    uniqueIndex("orders_page_token_idx").on(t.orderPageTokenHash),
    check("orders_total_positive", sql`${t.totalCents} > 0`),
    check("orders_status_known", sql`${t.status} in ('paid', 'pending')`),
    check("orders_order_status_known", sql`${t.orderStatus} in ('received', 'scheduled', 'installed', 'cancelled')`),
  ],
);

/**
 * One line of an order: what was bought as it was then (name, options, the
 * price of one unit at purchase) and how many. `price_cents` is one unit's
 * price (the column's name from before quantities: renaming it would break the
 * machines still running the old code during a rolling deploy);
 * `line_total_cents` is `price_cents × quantity`, computed by Postgres, for
 * whoever reads the rows in Drizzle Studio. Lines written before quantities
 * are one unit each.
 */
export const orderLines = pgTable(
  "order_lines",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The catalogue's product, while it exists; the line keeps its name and price regardless. */
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    selectedOptions: jsonb("selected_options").$type<Record<string, string>>().notNull().default({}),
    /** One unit's price with its options, in cents, at purchase. */
    priceCents: integer("price_cents").notNull(),
    quantity: integer("quantity").notNull().default(1),
    /** `price_cents × quantity`: what the line cost, kept by Postgres. */
    lineTotalCents: integer("line_total_cents").generatedAlwaysAs(sql`price_cents * quantity`),
  },
  (t) => [
    index("order_lines_order_idx").on(t.orderId),
    check("order_lines_price_not_negative", sql`${t.priceCents} >= 0`),
    check("order_lines_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * Units held for a checkout between its stock check and its order
 * (DECISIONS 25): written under the products' row locks before the card is
 * charged, keyed by the charge's idempotency key, turned into the stock taken
 * by the order's transaction, given back on a refused card. A hold stops
 * counting at `expires_at` (a process that died mid-charge). `cart_id` lets a
 * second checkout of the same cart be refused while one is being paid.
 */
export const stockHolds = pgTable(
  "stock_holds",
  {
    key: text("key").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    cartId: uuid("cart_id").notNull(),
    quantity: integer("quantity").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.key, t.productId] }),
    index("stock_holds_product_idx").on(t.productId, t.expiresAt),
    index("stock_holds_cart_idx").on(t.cartId),
    check("stock_holds_quantity_positive", sql`${t.quantity} > 0`),
  ],
);
