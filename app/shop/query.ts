/**
 * The shop's URL (`/shop?category=&q=&sort=`) read and written in one place,
 * client-safe: the loader reads it, the filter form and the enhanced inputs
 * write it. Values that mean nothing are dropped rather than refused, so an
 * old or hand-edited link still shows the shop.
 */

export const SHOP_SORTS = [
  { value: "name-asc", label: "A-Z" },
  { value: "name-desc", label: "Z-A" },
  { value: "price-asc", label: "Price Low to High" },
  { value: "price-desc", label: "Price High to Low" },
] as const;

export type ShopSort = (typeof SHOP_SORTS)[number]["value"];
export const DEFAULT_SORT: ShopSort = "name-asc";

/** Longest search text read; a product name is far shorter. */
export const SEARCH_MAX = 100;
/** Ids are Postgres `serial`s: anything larger is no product. */
export const PRODUCT_ID_MAX = 2_147_483_647;

export type CatalogueQuery = { category?: number; q: string; sort: ShopSort };

const isSort = (value: string | null): value is ShopSort => SHOP_SORTS.some((s) => s.value === value);

/** A positive whole number written plainly ("7", not "07", "7.0" or "7abc"), or null. */
export function parseId(text: string | null | undefined): number | null {
  if (!text || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= PRODUCT_ID_MAX ? id : null;
}

export function readShopQuery(params: URLSearchParams): CatalogueQuery {
  const category = parseId(params.get("category"));
  const sort = params.get("sort");
  return {
    ...(category === null ? {} : { category }),
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX),
    sort: isSort(sort) ? sort : DEFAULT_SORT,
  };
}

/** The shop URL for a query; defaults are left out so the plain /shop stays one cached page. */
export function shopHref(query: Partial<CatalogueQuery>): string {
  const params = new URLSearchParams();
  if (query.category !== undefined) params.set("category", String(query.category));
  if (query.q) params.set("q", query.q);
  if (query.sort && query.sort !== DEFAULT_SORT) params.set("sort", query.sort);
  const search = params.toString();
  return search ? `/shop?${search}` : "/shop";
}
