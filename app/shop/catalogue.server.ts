import { and, asc, desc, eq, exists, ilike, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { categories, products } from "@db/schema";
import { type CatalogueQuery, PRODUCT_ID_MAX, type ShopSort } from "./query";
import { type CategoryView, type ProductView, SERVICE_CATEGORY } from "./types";

/**
 * The catalogue's reads (SPEC §2 Shop, Product detail; §7 inventory and
 * category calls), one set of queries for the pages and the JSON API. The
 * filter, search and sort run in the database (SPEC §4 applies them on the
 * client; here the URL carries them, so a shared link and a page without
 * JavaScript show the same list).
 */

const productColumns = {
  id: products.id,
  name: products.name,
  priceCents: products.priceCents,
  image: products.image,
  categoryId: products.categoryId,
  description: products.description,
  customFields: products.customFields,
  stock: products.stock,
  service: sql<boolean>`(${categories.name} = ${SERVICE_CATEGORY})`,
};

const ORDER: Record<ShopSort, SQL[]> = {
  "name-asc": [asc(products.name), asc(products.id)],
  "name-desc": [desc(products.name), asc(products.id)],
  "price-asc": [asc(products.priceCents), asc(products.name), asc(products.id)],
  "price-desc": [desc(products.priceCents), asc(products.name), asc(products.id)],
};

/** `%`, `_` and `\` typed by a visitor are letters, not patterns: "50%" finds "50%". */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** SPEC §3 Category: only categories with at least one product, in catalogue order. */
export async function listCategories(db: DbOrTx): Promise<CategoryView[]> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(exists(db.select({ one: products.id }).from(products).where(eq(products.categoryId, categories.id))))
    .orderBy(asc(categories.id));
}

/** The grid: category filter, case-insensitive name substring (SPEC §4), sort. */
export async function listProducts(db: DbOrTx, query: Partial<CatalogueQuery> = {}): Promise<ProductView[]> {
  const where: SQL[] = [];
  if (query.category !== undefined) where.push(eq(products.categoryId, query.category));
  if (query.q) where.push(ilike(products.name, likeContains(query.q)));
  return db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(and(...where))
    .orderBy(...ORDER[query.sort ?? "name-asc"]);
}

/** One product, or null (an id that is not a whole number in range is never asked for). */
export async function getProduct(db: DbOrTx, id: number): Promise<ProductView | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > PRODUCT_ID_MAX) return null;
  const [row] = await db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(eq(products.id, id))
    .limit(1);
  return row ?? null;
}

/** A product in SPEC §7's JSON shape: price as a number of dollars, `category` its category id. */
export function apiProduct(p: ProductView) {
  return {
    id: p.id,
    name: p.name,
    price: p.priceCents / 100,
    image: p.image,
    category: p.categoryId,
    description: p.description,
    customFields: p.customFields,
    stock: p.stock,
  };
}
