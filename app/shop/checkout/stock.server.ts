import { and, asc, eq, gt, inArray, lte, ne, sql } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { cartItems, carts, products, stockHolds } from "@db/schema";
import { FormFailure } from "~/forms/pipeline";
import { readCart, unitsPerProduct } from "../cart.server";
import { EMPTY_CART_MESSAGE, STOCK_MESSAGES } from "./identity";

/**
 * Stock around the card charge (DECISIONS 25), as the residential booking
 * holds a place (docs/decisions/039-residential-availability.md): the processor call runs outside any
 * transaction, so a unit is taken in two steps.
 *
 *  1. `holdCart`, before the charge: under the cart's row lock and the
 *     products' row locks (in id order: no deadlock between two carts), the
 *     cart is read and priced from the catalogue once; each product's stock
 *     minus the other checkouts' live holds must cover its units (the
 *     quantities of all its lines), and no line may be blocked (an option
 *     withdrawn: DECISIONS 34), else the buyer is told which product and
 *     nothing is charged. The units are held
 *     under the charge's idempotency key, and the priced lines are what is
 *     charged and ordered (`CheckoutCart`).
 *  2. `takeStock`, in the order's transaction: under the same row locks the
 *     hold becomes stock taken. Should the hold have expired and its units
 *     gone elsewhere, it refuses and the pipeline voids the charge.
 *
 * A refused card releases the hold (`releaseStock`); a process that dies
 * mid-charge leaves one that stops counting after HOLD_MINUTES.
 */
const HOLD_MINUTES = 10;

/** One line as charged and ordered: the cart line, priced when it was held (`priceCents` is one unit's). */
export type CheckoutLine = {
  itemId: string;
  productId: number;
  name: string;
  image: string;
  selectedOptions: Record<string, string>;
  quantity: number;
  priceCents: number;
};
export type CheckoutCart = { cartId: string; lines: CheckoutLine[]; totalCents: number };

/** Locks the products' rows in id order and returns their name and stock. */
async function lockProducts(tx: Tx, ids: number[]) {
  if (ids.length === 0) return new Map<number, { name: string; stock: number }>();
  const rows = await tx
    .select({ id: products.id, name: products.name, stock: products.stock })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  return new Map(rows.map((r) => [r.id, r]));
}

/** Units of each product held by other live checkouts than `key`. */
async function heldByOthers(tx: Tx, ids: number[], key: string): Promise<Map<number, number>> {
  const rows = await tx
    .select({ productId: stockHolds.productId, n: sql<number>`sum(${stockHolds.quantity})::int` })
    .from(stockHolds)
    .where(and(inArray(stockHolds.productId, ids), ne(stockHolds.key, key), gt(stockHolds.expiresAt, sql`now()`)))
    .groupBy(stockHolds.productId);
  return new Map(rows.map((r) => [r.productId, Number(r.n)]));
}

/** The first product whose stock does not cover the wanted units, as the buyer is told it. */
async function shortage(tx: Tx, wanted: Map<number, number>, key: string): Promise<FormFailure | null> {
  const ids = [...wanted.keys()];
  const locked = await lockProducts(tx, ids);
  const held = await heldByOthers(tx, ids, key);
  for (const [id, quantity] of wanted) {
    const product = locked.get(id);
    const left = Math.max(0, (product?.stock ?? 0) - (held.get(id) ?? 0));
    if (left >= quantity) continue;
    const name = product?.name ?? "A product in your cart";
    return new FormFailure(left === 0 ? STOCK_MESSAGES.outOfStock(name) : STOCK_MESSAGES.fewer(name, left), {}, 409);
  }
  return null;
}

/** Step 1 (before the charge): the cart priced and its units held for `key`, or why not. */
export async function holdCart(db: Database, key: string, cartId: string | null): Promise<CheckoutCart | FormFailure> {
  if (!cartId) return new FormFailure(EMPTY_CART_MESSAGE);
  return db.transaction(async (tx) => {
    // The cart's row lock: an add to this cart (which takes it too) waits, and
    // a second checkout of it is judged after this one's hold is written.
    const [cart] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cartId)).for("update");
    if (!cart) return new FormFailure(EMPTY_CART_MESSAGE);
    const [busy] = await tx
      .select({ key: stockHolds.key })
      .from(stockHolds)
      .where(and(eq(stockHolds.cartId, cartId), ne(stockHolds.key, key), gt(stockHolds.expiresAt, sql`now()`)))
      .limit(1);
    if (busy) return new FormFailure(STOCK_MESSAGES.busy, {}, 409);

    const first = await readCart(tx, cartId);
    const wanted = unitsPerProduct(first.items);
    const refused = await shortage(tx, wanted, key);
    if (refused) return refused;
    // Read again under the products' locks: the prices, names and quantities charged are these.
    const { items, totalCents } = await readCart(tx, cartId);
    const gone = items.find((item) => item.problem === "withdrawn");
    if (gone) return new FormFailure(STOCK_MESSAGES.optionGone(gone.name), {}, 409);
    // Under the locks the stock covers every product's units (shortage above), so no line is
    // blocked for its stock any more; should one be, it is refused like the others.
    const blocked = items.find((item) => item.problem !== null);
    if (blocked)
      return new FormFailure(
        blocked.problem === "short"
          ? STOCK_MESSAGES.fewer(blocked.name, blocked.stock)
          : STOCK_MESSAGES.outOfStock(blocked.name),
        {},
        409,
      );
    if (totalCents <= 0) return new FormFailure(EMPTY_CART_MESSAGE);
    const lines = items.map((item): CheckoutLine => ({
      itemId: item.id,
      productId: item.productId,
      name: item.name,
      image: item.image,
      selectedOptions: item.selectedOptions,
      quantity: item.quantity,
      priceCents: item.priceCents!,
    }));

    const ids = [...wanted.keys()];
    await tx.delete(stockHolds).where(and(inArray(stockHolds.productId, ids), lte(stockHolds.expiresAt, sql`now()`)));
    // A hold this key made before (a declined card, then another): replaced by this one.
    await tx.delete(stockHolds).where(eq(stockHolds.key, key));
    const expiresAt = sql`now() + make_interval(mins => ${HOLD_MINUTES})`;
    await tx
      .insert(stockHolds)
      .values(
        [...unitsPerProduct(lines)].map(([productId, quantity]) => ({ key, productId, cartId, quantity, expiresAt })),
      );
    return { cartId, lines, totalCents };
  });
}

/**
 * Step 2 (in the order's transaction): the cart lines paid for are still
 * there (a second checkout of the same lines, by another tab, finds them gone
 * and is refused), the held units become stock taken, the hold is deleted,
 * and the units paid for leave the cart: a line whose quantity was raised
 * meanwhile (another tab) keeps the units beyond them for another order.
 * Throws FormFailure; the pipeline then voids the charge.
 */
export async function takeStock(tx: Tx, key: string, cart: CheckoutCart): Promise<void> {
  const itemIds = cart.lines.map((line) => line.itemId);
  const still = await tx
    .select({ id: cartItems.id, quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cart.cartId), inArray(cartItems.id, itemIds)))
    .orderBy(asc(cartItems.id))
    .for("update");
  if (still.length !== itemIds.length) throw new FormFailure(STOCK_MESSAGES.changed, {}, 409);
  const wanted = unitsPerProduct(cart.lines);
  const refused = await shortage(tx, wanted, key);
  if (refused) throw refused;
  for (const [id, quantity] of wanted) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}` })
      .where(eq(products.id, id));
  }
  await tx.delete(stockHolds).where(eq(stockHolds.key, key));
  // The units paid for leave the cart; anything added meanwhile stays for another order.
  const now = new Map(still.map((row) => [row.id, row.quantity]));
  const emptied: string[] = [];
  for (const line of cart.lines) {
    const left = (now.get(line.itemId) ?? 0) - line.quantity;
    if (left > 0) await tx.update(cartItems).set({ quantity: left }).where(eq(cartItems.id, line.itemId));
    else emptied.push(line.itemId);
  }
  if (emptied.length > 0) await tx.delete(cartItems).where(inArray(cartItems.id, emptied));
}

/** A refused card (or an order that could not be stored) gives its units back at once. */
export async function releaseStock(db: DbOrTx, key: string): Promise<void> {
  await db.delete(stockHolds).where(eq(stockHolds.key, key));
}
