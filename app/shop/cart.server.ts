import { and, asc, count, eq, lt, ne, sql } from "drizzle-orm";
import { createCookie, type Cookie } from "react-router";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { cartItems, carts, categories, products } from "@db/schema";
import { BodyError, NOT_JSON_MESSAGE, parseJsonObject, readBytes } from "~/http/body.server";
import { rateLimitSubject } from "~/http/client-ip.server";
import { takeRateLimit } from "~/http/rate-limit.server";
import { readBody } from "~/http/read-body.server";
import { siteCookieOptions } from "~/lib/cookies.server";
import { env } from "~/lib/env.server";
import { secret } from "~/lib/secrets.server";
import {
  CART_COOKIE_NAME,
  CART_LINE_PROBLEMS,
  CART_MESSAGES,
  cartAddSchema,
  cartItemIdSchema,
  cartUpdateSchema,
  onlyLeft,
  QUANTITY_MAX,
  sendsCartCookie,
} from "./cart-schema";
import { lineTotalCents, priceWithOptions } from "./pricing";
import { SERVICE_CATEGORY } from "./types";

/**
 * The cookie cart (issue 17 item 4, DECISIONS 12, 21 and 34), shared by
 * /my-cart and the SPEC §7 calls. The cookie holds the cart's random id,
 * signed with SESSION_SECRET; the lines (a product, its options, a quantity)
 * live in Postgres without a price: every read prices them from the catalogue
 * as it is now and judges them against the stock, and every add and change is
 * held to the stock at once (the checkout takes it: checkout/stock.server.ts). A visitor gets a cookie only
 * when they add something, so browsing pages stay the same for everyone.
 */

const COOKIE_NAME = CART_COOKIE_NAME;
const COOKIE_MAX_AGE = 60 * 60 * 24 * 90;
/** A cart is a shopping list, not storage: beyond this an add is refused. */
export const MAX_CART_ITEMS = 50;
/** The add, update and delete bodies are a few hundred bytes. */
const MAX_CART_BODY = 16 * 1024;

export const CART_ADD_MESSAGES = {
  added: "Added to your cart.",
  updated: "Your cart was updated.",
  removed: "Removed from your cart.",
  unknownProduct: "That product is not in our shop.",
  outOfStock: "Sorry, that product is out of stock.",
  full: `Your cart is full (at most ${MAX_CART_ITEMS} items). Remove something before adding more.`,
  tooManyCarts: "You have started several carts in a short while. Please wait a few minutes and try again, or call us.",
} as const;

let cookieOf: { key: string; cookie: Cookie } | undefined;
/** Signed, HttpOnly, SameSite=Lax; Secure when the site is served over https. */
function cartCookie(): Cookie {
  const siteUrl = env().SITE_URL;
  const key = `${siteUrl}\n${secret("SESSION_SECRET")}`;
  if (cookieOf?.key !== key) {
    const options = siteCookieOptions(siteUrl.startsWith("https:"), { maxAge: COOKIE_MAX_AGE });
    cookieOf = { key, cookie: createCookie(COOKIE_NAME, { ...options, secrets: [secret("SESSION_SECRET")] }) };
  }
  return cookieOf.cookie;
}

/** The cart id this request's cookie names, or null (no cookie, a forged or malformed one). */
export async function cartIdOf(request: Request): Promise<string | null> {
  const value: unknown = await cartCookie().parse(request.headers.get("Cookie"));
  const id = cartItemIdSchema.safeParse(value);
  return id.success ? id.data : null;
}

/** The Set-Cookie header that gives a visitor their cart. */
export function cartCookieHeader(cartId: string): Promise<string> {
  return cartCookie().serialize(cartId);
}

// ── Reading ─────────────────────────────────────────────────────────

/** Why a line cannot be bought now: its product ran out, the cart holds more than the stock, an option was withdrawn. */
export type LineProblem = "outOfStock" | "short" | "withdrawn";

export type CartLine = {
  id: string;
  productId: number;
  name: string;
  description: string;
  image: string;
  stock: number;
  /** A visit we sell (the Services category): its stock count is not shown. */
  service: boolean;
  /** Field name → option label, in the product's field order. */
  selectedOptions: Record<string, string>;
  quantity: number;
  /** Units the stock leaves for this line: the stock less the units of the product's other lines (other options). */
  room: number;
  /** One unit: base plus options from today's catalogue; null when a chosen option is no longer offered. */
  priceCents: number | null;
  /** `priceCents × quantity`; null when the line has no price. */
  lineCents: number | null;
  /** Null when the line can be bought; otherwise it is left out of the total and blocks the checkout. */
  problem: LineProblem | null;
  /** The problem as the visitor reads it (CART_LINE_PROBLEMS), or null. */
  problemMessage: string | null;
};

/** The lines, the total of those that can be bought, and whether any cannot (the checkout is closed until it goes). */
export type CartView = { items: CartLine[]; totalCents: number; blocked: boolean };

/**
 * What can be bought of each line, judged per product: a product's units over
 * all its lines (one per set of options) against its stock. Exported for the
 * checkout, which judges the cart it holds the same way.
 */
export function lineProblem(
  line: { productId: number; stock: number; priceCents: number | null },
  unitsOfProduct: Map<number, number>,
): LineProblem | null {
  if (line.stock <= 0) return "outOfStock";
  if (line.priceCents === null) return "withdrawn";
  if ((unitsOfProduct.get(line.productId) ?? 0) > line.stock) return "short";
  return null;
}

function problemMessage(problem: LineProblem | null, stock: number): string | null {
  if (problem === "short") return CART_LINE_PROBLEMS.short(stock);
  return problem ? CART_LINE_PROBLEMS[problem] : null;
}

/** Units per product over lines, in product id order (the checkout's lock order). */
export function unitsPerProduct(lines: { productId: number; quantity: number }[]): Map<number, number> {
  const units = new Map<number, number>();
  for (const line of [...lines].sort((a, b) => a.productId - b.productId))
    units.set(line.productId, (units.get(line.productId) ?? 0) + line.quantity);
  return units;
}

/** The cart's lines, oldest first, priced from the catalogue now and judged against its stock. */
export async function readCart(db: DbOrTx, cartId: string | null): Promise<CartView> {
  if (!cartId) return { items: [], totalCents: 0, blocked: false };
  const rows = await db
    .select({
      id: cartItems.id,
      selectedOptions: cartItems.selectedOptions,
      quantity: cartItems.quantity,
      productId: products.id,
      name: products.name,
      description: products.description,
      image: products.image,
      stock: products.stock,
      service: sql<boolean>`(${categories.name} = ${SERVICE_CATEGORY})`,
      priceCents: products.priceCents,
      customFields: products.customFields,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(cartItems.cartId, cartId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  const units = unitsPerProduct(rows);
  const items = rows.map(({ customFields, priceCents, selectedOptions, ...row }): CartLine => {
    const price = priceWithOptions({ priceCents, customFields }, selectedOptions);
    const unit = price.ok ? price.cents : null;
    const problem = lineProblem({ ...row, priceCents: unit }, units);
    return {
      ...row,
      room: row.stock - ((units.get(row.productId) ?? 0) - row.quantity),
      selectedOptions: price.ok ? Object.fromEntries(price.options.map((o) => [o.name, o.label])) : selectedOptions,
      priceCents: unit,
      lineCents: unit === null ? null : lineTotalCents(unit, row.quantity),
      problem,
      problemMessage: problemMessage(problem, row.stock),
    };
  });
  return {
    items,
    totalCents: items.reduce((sum, item) => sum + (item.problem ? 0 : (item.lineCents ?? 0)), 0),
    blocked: items.some((item) => item.problem !== null),
  };
}

/** How many units the cart holds, over all its lines (those that cannot be bought now too): the header's count. */
export async function countCartUnits(db: DbOrTx, cartId: string | null): Promise<number> {
  if (!cartId) return 0;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId));
  return Number(row?.n ?? 0);
}

/**
 * The header's count for a page rendered for this request (root.tsx): the cart's units when the
 * request sends a valid cart cookie, else null, "not said": a page without a cart may be kept by the
 * shared page cache and shown to a visitor who has one, so the browser asks /api/store/cart/count
 * (cart-count.ts). Null too when the database cannot be read: a page still renders.
 */
export async function headerCartCount(
  db: () => Database | Promise<Database>,
  request: Request,
): Promise<number | null> {
  if (!sendsCartCookie(request.headers.get("Cookie"))) return null;
  try {
    const cartId = await cartIdOf(request);
    // The connection is asked for only now: a database that is down rejects here, inside the try.
    return cartId ? await countCartUnits(await db(), cartId) : null;
  } catch {
    return null;
  }
}

/** One line of a cart as it reads now, or undefined when it is not in that cart. */
async function readLine(db: DbOrTx, cartId: string, itemId: string): Promise<CartLine | undefined> {
  return (await readCart(db, cartId)).items.find((item) => item.id === itemId);
}

// ── Changing ────────────────────────────────────────────────────────

/** A refusal; `item` is the line concerned as it now is (kept at the stock), when there is one. */
export type CartRefusal = {
  ok: false;
  status: 400 | 404 | 409 | 429;
  message: string;
  retryAfterSeconds?: number;
  item?: CartLine;
};

export type AddOutcome = { ok: true; cartId: string; newCart: boolean; item: CartLine } | CartRefusal;

/** Takes the cart's row lock (adds and changes to one cart take turns); false when the cart is gone. */
async function lockCart(tx: Tx, cartId: string): Promise<boolean> {
  const [kept] = await tx
    .update(carts)
    .set({ updatedAt: sql`now()` })
    .where(eq(carts.id, cartId))
    .returning({ id: carts.id });
  return kept !== undefined;
}

/** Units of a product in a cart, over all its lines but `except`. */
async function unitsInCart(tx: Tx, cartId: string, productId: number, except?: string): Promise<number> {
  const where = [eq(cartItems.cartId, cartId), eq(cartItems.productId, productId)];
  if (except) where.push(ne(cartItems.id, except));
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .where(and(...where));
  return Number(row?.n ?? 0);
}

/**
 * Adds units of a product with its options to the visitor's cart (a new cart
 * when they have none yet): one, or the product page's Quantity. The line of
 * that product with those options goes up by that many, or a new line of that
 * many is made (DECISIONS 34). `input` is the posted form or JSON, parsed here;
 * only the product id, the option labels and the quantity are read. An add the
 * stock cannot cover (the product's units in the cart, over all its lines,
 * would pass it) is refused whole with "Only N left in stock.", and a line
 * already beyond the stock (it fell since) is brought down to it.
 * An add that makes a new cart counts against CART_NEW_MAX new carts per
 * client IP and window.
 */
export async function addToCart(
  db: Database,
  cartId: string | null,
  input: unknown,
  clientIp: string | null,
): Promise<AddOutcome> {
  const parsed = cartAddSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? CART_MESSAGES.product };
  const { inventory_id, selectedOptions, quantity: units = 1 } = parsed.data;

  const [product] = await db.select().from(products).where(eq(products.id, inventory_id));
  if (!product) return { ok: false, status: 404, message: CART_ADD_MESSAGES.unknownProduct };
  const price = priceWithOptions(product, selectedOptions);
  if (!price.ok) return { ok: false, status: 400, message: price.message };
  if (product.stock <= 0) return { ok: false, status: 409, message: CART_ADD_MESSAGES.outOfStock };
  const chosen = Object.fromEntries(price.options.map((o) => [o.name, o.label]));

  return db.transaction(async (tx): Promise<AddOutcome> => {
    const opened = await openCartForAdd(tx, cartId, clientIp);
    if (!opened.ok) return opened;
    const { cartId: cart, newCart } = opened;
    // The stock as it is now (read again inside the transaction, after the cart's lock was waited for).
    const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
    const stock = now?.stock ?? 0;
    if (stock <= 0) return { ok: false, status: 409, message: CART_ADD_MESSAGES.outOfStock };
    const line = await findLine(tx, cart, product.id, chosen);
    const room = stock - (await unitsInCart(tx, cart, product.id, line?.id));
    const add = { cartId: cart, newCart, productId: product.id, chosen, units, stock, room };
    return line ? addToLine(tx, add, line) : addNewLine(tx, add);
  });
}

/** What an add holds once its cart is locked and the stock read again: the cart, the product, the units and the room. */
type PendingAdd = {
  cartId: string;
  newCart: boolean;
  productId: number;
  /** Field name → option label, as the line stores them. */
  chosen: Record<string, string>;
  units: number;
  stock: number;
  /** Units the stock leaves for this line: the stock less the product's other lines. */
  room: number;
};

/**
 * The cart an add goes to, its row locked: the cookie's, or a new one when there is no cookie or
 * its cart is gone. A new cart is refused beyond CART_NEW_MAX per address and window.
 */
async function openCartForAdd(
  tx: Tx,
  cartId: string | null,
  clientIp: string | null,
): Promise<{ ok: true; cartId: string; newCart: boolean } | CartRefusal> {
  let id = cartId;
  // Locks the cart's row: two adds at once cannot both pass the size and stock checks.
  if (id && !(await lockCart(tx, id))) id = null; // a cookie whose cart is gone (pruned, or the data was reset)
  if (id) return { ok: true, cartId: id, newCart: false };
  // A new cart (no cookie, or one whose cart is gone): one of CART_NEW_MAX per address and
  // window. Counted in this transaction, which commits the count with a refusal too.
  const e = env();
  const limit = await takeRateLimit(tx, `cart:${rateLimitSubject(clientIp)}`, {
    max: e.CART_NEW_MAX,
    windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
  });
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      message: CART_ADD_MESSAGES.tooManyCarts,
      retryAfterSeconds: limit.retryAfterSeconds,
    };
  const [made] = await tx.insert(carts).values({}).returning({ id: carts.id });
  return { ok: true, cartId: made!.id, newCart: true };
}

/** The line of this product with these options (the oldest, should a machine on older code have made two). */
async function findLine(
  tx: Tx,
  cartId: string,
  productId: number,
  chosen: Record<string, string>,
): Promise<{ id: string; quantity: number } | undefined> {
  const [line] = await tx
    .select({ id: cartItems.id, quantity: cartItems.quantity })
    .from(cartItems)
    .where(
      and(
        eq(cartItems.cartId, cartId),
        eq(cartItems.productId, productId),
        sql`${cartItems.selectedOptions} = ${JSON.stringify(chosen)}::jsonb`,
      ),
    )
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id))
    .limit(1);
  return line;
}

/** Adds the units to the line the cart already has for this product and these options, within the bounds. */
async function addToLine(tx: Tx, add: PendingAdd, line: { id: string; quantity: number }): Promise<AddOutcome> {
  const { cartId: cart, units, stock, room } = add;
  // A line holds at most QUANTITY_MAX units, whatever the stock (the quantity select's bound).
  if (line.quantity + units > QUANTITY_MAX)
    return { ok: false, status: 400, message: CART_MESSAGES.quantity, item: await readLine(tx, cart, line.id) };
  if (line.quantity + units > room) {
    // Refused; a line already beyond what is left is brought down to it (never below one).
    if (line.quantity > room && room >= 1)
      await tx.update(cartItems).set({ quantity: room }).where(eq(cartItems.id, line.id));
    return { ok: false, status: 409, message: onlyLeft(stock), item: await readLine(tx, cart, line.id) };
  }
  await tx
    .update(cartItems)
    .set({ quantity: line.quantity + units })
    .where(eq(cartItems.id, line.id));
  return { ok: true, cartId: cart, newCart: add.newCart, item: (await readLine(tx, cart, line.id))! };
}

/** Makes a new line of the units for this product and these options, when the stock and the cart's size allow. */
async function addNewLine(tx: Tx, add: PendingAdd): Promise<AddOutcome> {
  const { cartId: cart, units, stock, room } = add;
  if (units > room) return { ok: false, status: 409, message: onlyLeft(stock) };
  const [{ n }] = (await tx.select({ n: count() }).from(cartItems).where(eq(cartItems.cartId, cart))) as [
    { n: number },
  ];
  if (Number(n) >= MAX_CART_ITEMS) return { ok: false, status: 409, message: CART_ADD_MESSAGES.full };
  const [made] = await tx
    .insert(cartItems)
    .values({ cartId: cart, productId: add.productId, selectedOptions: add.chosen, quantity: units })
    .returning({ id: cartItems.id });
  return { ok: true, cartId: cart, newCart: add.newCart, item: (await readLine(tx, cart, made!.id))! };
}

export type UpdateOutcome = { ok: true; item: CartLine } | CartRefusal;

/**
 * Sets a line of the visitor's own cart to `quantity` units (the page's
 * Update form, POST /api/store/cart/update). More than the stock leaves for
 * it (the product's other lines count too) is refused with "Only N left in
 * stock." and the line is set to what is left; a product out of stock is
 * refused and the line left as it is (it can only be removed).
 */
export async function updateCartLine(db: Database, cartId: string | null, input: unknown): Promise<UpdateOutcome> {
  const parsed = cartUpdateSchema.safeParse(input);
  if (!parsed.success)
    return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? CART_MESSAGES.quantity };
  const { cart_id: itemId, quantity } = parsed.data;
  if (!cartId) return { ok: false, status: 404, message: CART_MESSAGES.item };
  return db.transaction(async (tx): Promise<UpdateOutcome> => {
    if (!(await lockCart(tx, cartId))) return { ok: false, status: 404, message: CART_MESSAGES.item };
    const [line] = await tx
      .select({ id: cartItems.id, productId: cartItems.productId, quantity: cartItems.quantity, stock: products.stock })
      .from(cartItems)
      .innerJoin(products, eq(products.id, cartItems.productId))
      .where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cartId)));
    if (!line) return { ok: false, status: 404, message: CART_MESSAGES.item };
    if (line.stock <= 0)
      return {
        ok: false,
        status: 409,
        message: CART_ADD_MESSAGES.outOfStock,
        item: await readLine(tx, cartId, line.id),
      };
    const room = line.stock - (await unitsInCart(tx, cartId, line.productId, line.id));
    const set = Math.min(quantity, room);
    if (set >= 1 && set !== line.quantity)
      await tx.update(cartItems).set({ quantity: set }).where(eq(cartItems.id, line.id));
    const item = (await readLine(tx, cartId, line.id))!;
    return quantity > room ? { ok: false, status: 409, message: onlyLeft(line.stock), item } : { ok: true, item };
  });
}

export type RemoveOutcome = { ok: true } | { ok: false; status: 400 | 404; message: string };

/** Removes one line, only from this visitor's own cart. */
export async function removeFromCart(db: Database, cartId: string | null, itemId: unknown): Promise<RemoveOutcome> {
  const id = cartItemIdSchema.safeParse(itemId);
  if (!id.success) return { ok: false, status: 400, message: CART_MESSAGES.item };
  if (!cartId) return { ok: false, status: 404, message: CART_MESSAGES.item };
  const gone = await db
    .delete(cartItems)
    .where(and(eq(cartItems.id, id.data), eq(cartItems.cartId, cartId)))
    .returning({ id: cartItems.id });
  return gone.length > 0 ? { ok: true } : { ok: false, status: 404, message: CART_MESSAGES.item };
}

/**
 * Drops the carts whose cookie has expired: it is set once, when the cart is made, for
 * COOKIE_MAX_AGE, so a day after that nobody can reach the cart again (its lines go with it).
 * Orders keep their own copy of what was bought.
 */
export async function pruneCarts(db: Database): Promise<void> {
  // The database's clock, as the rows' created_at; a day's grace for clocks that disagree.
  await db.delete(carts).where(lt(carts.createdAt, sql`now() - make_interval(secs => ${COOKIE_MAX_AGE + 86_400})`));
}

// ── Request bodies ──────────────────────────────────────────────────

/**
 * A cart request's body as a plain object: JSON as sent (SPEC §7's nested
 * `selectedOptions`), a form's fields with `selectedOptions.<field>` gathered
 * into one object (split at the first dot only, so a field name may hold one).
 * Throws BodyError for a body that cannot be read (too large, not JSON…).
 */
export async function readCartInput(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await readBytes(request, MAX_CART_BODY));
    } catch (error) {
      if (error instanceof BodyError) throw error;
      throw new BodyError(400, NOT_JSON_MESSAGE);
    }
    return parseJsonObject(text);
  }
  const body = await readBody(request);
  try {
    const out: Record<string, unknown> = {};
    const options: Record<string, string> = {};
    for (const [key, value] of body.fields) {
      if (typeof value !== "string") continue;
      if (key.startsWith("selectedOptions.")) options[key.slice("selectedOptions.".length)] ??= value;
      else out[key] ??= value;
    }
    if (Object.keys(options).length > 0) out.selectedOptions = options;
    return out;
  } finally {
    await body.cleanup();
  }
}
