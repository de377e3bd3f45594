import { and, asc, count, eq, lt, sql } from "drizzle-orm";
import { createCookie, type Cookie } from "react-router";
import type { Database } from "@db/client.server";
import { cartItems, carts, products } from "@db/schema";
import { BodyError, NOT_JSON_MESSAGE, parseJsonObject, readBytes } from "~/http/body.server";
import { rateLimitSubject } from "~/http/client-ip.server";
import { takeRateLimit } from "~/http/rate-limit.server";
import { readBody } from "~/forms/uploads.server";
import { siteCookieOptions } from "~/lib/cookies.server";
import { env } from "~/lib/env.server";
import { secret } from "~/lib/secrets.server";
import { CART_MESSAGES, cartAddSchema, cartItemIdSchema } from "./cart-schema";
import { priceWithOptions } from "./pricing";

/**
 * The cookie cart (issue 17 item 4, DECISIONS 12 and 21), shared by /my-cart
 * and the SPEC §7 calls. The cookie holds the cart's random id, signed with
 * SESSION_SECRET; the lines live in Postgres without a price: every read
 * prices them from the catalogue as it is now. A visitor gets a cookie only
 * when they add something, so browsing pages stay the same for everyone.
 */

const COOKIE_NAME = "cart";
const COOKIE_MAX_AGE = 60 * 60 * 24 * 90;
/** A cart is a shopping list, not storage: beyond this an add is refused. */
export const MAX_CART_ITEMS = 50;
/** The add and delete bodies are a few hundred bytes. */
const MAX_CART_BODY = 16 * 1024;

export const CART_ADD_MESSAGES = {
  added: "Added to your cart.",
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

export type CartLine = {
  id: string;
  productId: number;
  name: string;
  description: string;
  image: string;
  stock: number;
  /** Field name → option label, in the product's field order. */
  selectedOptions: Record<string, string>;
  /** Base plus options from today's catalogue; null when a chosen option is no longer offered. */
  priceCents: number | null;
};

export type CartView = { items: CartLine[]; totalCents: number };

/** The cart's lines, oldest first, priced from the catalogue now. */
export async function readCart(db: Database, cartId: string | null): Promise<CartView> {
  if (!cartId) return { items: [], totalCents: 0 };
  const rows = await db
    .select({
      id: cartItems.id,
      selectedOptions: cartItems.selectedOptions,
      productId: products.id,
      name: products.name,
      description: products.description,
      image: products.image,
      stock: products.stock,
      priceCents: products.priceCents,
      customFields: products.customFields,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.cartId, cartId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  const items = rows.map(({ customFields, priceCents, selectedOptions, ...row }): CartLine => {
    const price = priceWithOptions({ priceCents, customFields }, selectedOptions);
    return {
      ...row,
      selectedOptions: price.ok ? Object.fromEntries(price.options.map((o) => [o.name, o.label])) : selectedOptions,
      priceCents: price.ok ? price.cents : null,
    };
  });
  return { items, totalCents: items.reduce((sum, item) => sum + (item.priceCents ?? 0), 0) };
}

// ── Changing ────────────────────────────────────────────────────────

export type AddOutcome =
  | { ok: true; cartId: string; newCart: boolean; item: CartLine }
  | { ok: false; status: 400 | 404 | 409 | 429; message: string; retryAfterSeconds?: number };

/**
 * Adds one product with its options to the visitor's cart (a new cart when
 * they have none yet). `input` is the posted form or JSON, parsed here; only
 * the product id and the option labels are read. An add that makes a new
 * cart counts against CART_NEW_MAX new carts per client IP and window.
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
  const { inventory_id, selectedOptions } = parsed.data;

  const [product] = await db.select().from(products).where(eq(products.id, inventory_id));
  if (!product) return { ok: false, status: 404, message: CART_ADD_MESSAGES.unknownProduct };
  const price = priceWithOptions(product, selectedOptions);
  if (!price.ok) return { ok: false, status: 400, message: price.message };
  if (product.stock <= 0) return { ok: false, status: 409, message: CART_ADD_MESSAGES.outOfStock };
  const chosen = Object.fromEntries(price.options.map((o) => [o.name, o.label]));

  return db.transaction(async (tx) => {
    let id = cartId;
    let newCart = false;
    if (id) {
      // Locks the cart's row: two adds at once cannot both pass the size check.
      const [kept] = await tx
        .update(carts)
        .set({ updatedAt: sql`now()` })
        .where(eq(carts.id, id))
        .returning({ id: carts.id });
      if (!kept) id = null; // a cookie whose cart is gone (pruned, or the data was reset)
    }
    if (!id) {
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
        } as const;
      const [made] = await tx.insert(carts).values({}).returning({ id: carts.id });
      id = made!.id;
      newCart = true;
    }
    const [{ n }] = (await tx.select({ n: count() }).from(cartItems).where(eq(cartItems.cartId, id))) as [
      { n: number },
    ];
    if (Number(n) >= MAX_CART_ITEMS) return { ok: false, status: 409, message: CART_ADD_MESSAGES.full } as const;
    const [line] = await tx
      .insert(cartItems)
      .values({ cartId: id, productId: product.id, selectedOptions: chosen })
      .returning({ id: cartItems.id });
    const item: CartLine = {
      id: line!.id,
      productId: product.id,
      name: product.name,
      description: product.description,
      image: product.image,
      stock: product.stock,
      selectedOptions: chosen,
      priceCents: price.cents,
    };
    return { ok: true, cartId: id, newCart, item } as const;
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
