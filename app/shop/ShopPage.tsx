import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { formatUsd } from "~/payments/money";
import { Banner } from "~/shell/Banner";
import { SiteLink } from "~/shell/SiteLink";
import { CategoryIcon } from "./CategoryIcon";
import { useHydrated } from "~/shell/hydrated";
import { useShopLoading } from "./hooks";
import { type CatalogueQuery, SEARCH_MAX, SHOP_SORTS, type ShopSort, shopHref } from "./query";
import type { CategoryView } from "./types";

/** A card of the grid; `outOfStock` rather than the count, so a sale elsewhere does not make a new page. */
export type ShopCard = { id: number; name: string; priceCents: number; image: string; outOfStock: boolean };
export type ShopPageData = { categories: CategoryView[]; products: ShopCard[]; query: CatalogueQuery };

/** How long the search waits after the last key before it asks for the list. */
const SEARCH_DEBOUNCE_MS = 250;
/** Cards above the fold on a desktop load at once; the rest when scrolled near. */
const EAGER_IMAGES = 3;

/**
 * SPEC §2 Shop. Category, search and sort live in the URL: without
 * JavaScript the categories are links and the search and sort a GET form;
 * with it, the list follows the search box as the visitor types (debounced,
 * replacing the history entry) and the sort as soon as it changes.
 */
export function ShopPage({ data }: { data: ShopPageData }) {
  const { categories, products, query } = data;
  const loading = useShopLoading();
  return (
    <>
      <Banner
        image="shop.svg"
        title="Shop Our Collection"
        subtitle="All pricing includes installation"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Shop" }]}
      />
      <section className="section shop">
        <div className="shell-container shop-layout">
          <CategoryChips categories={categories} query={query} />
          <div className="shop-main">
            <ShopFilters query={query} />
            <p className="shop-status" role="status">
              {loading ?? `${products.length} ${products.length === 1 ? "product" : "products"}`}
            </p>
            {products.length === 0 ? (
              <div className="shop-empty">
                <p>No products match your search.</p>
                {/* A search inside a category that finds nothing: the same words over the whole shop. */}
                {query.q && query.category !== undefined ? (
                  <p>
                    <Link to={shopHref({ ...query, category: undefined })} preventScrollReset>
                      Search all products for “{query.q}”
                    </Link>
                  </p>
                ) : null}
              </div>
            ) : (
              <ul className="shop-grid" aria-busy={loading === "Loading products..." || undefined}>
                {products.map((p, i) => (
                  <li key={p.id} className="shop-card">
                    <img
                      src={p.image}
                      alt=""
                      width={640}
                      height={400}
                      loading={i < EAGER_IMAGES ? "eager" : "lazy"}
                      decoding="async"
                    />
                    <div className="shop-card-body">
                      <h3 className="shop-card-title">{p.name}</h3>
                      <p className="shop-price">{formatUsd(p.priceCents)}</p>
                      {p.outOfStock ? <p className="shop-card-stock">Out of stock</p> : null}
                      {/* A plain anchor: the shell's one listener navigates and prefetches on intent (shell/SiteLink.tsx). */}
                      <SiteLink to={`/product/${p.id}`} className="btn btn-primary shop-card-link">
                        View Details<span className="visually-hidden"> ({p.name})</span>
                      </SiteLink>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </section>
    </>
  );
}

/**
 * The categories: a sidebar on a desktop, one row of chips that scrolls sideways on a phone, so
 * the grid starts near the top. The chosen chip is kept in that row's view: without JavaScript by
 * CSS (`scroll-initial-target`, shop.css), with it also after Back or Forward (the row is the same
 * element across the shop's navigations, scrolled wherever the visitor left it).
 */
function CategoryChips({ categories, query }: { categories: CategoryView[]; query: CatalogueQuery }) {
  const row = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = row.current;
    const chip = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !chip || list.scrollWidth <= list.clientWidth) return;
    // Sideways only: the page itself does not move (the row is the chip's offset parent: shop.css).
    const left = chip.offsetLeft;
    if (left < list.scrollLeft || left + chip.offsetWidth > list.scrollLeft + list.clientWidth)
      list.scrollLeft = left - (list.clientWidth - chip.offsetWidth) / 2;
  }, [query.category]);
  return (
    <nav className="shop-categories" aria-labelledby="shop-categories-title">
      <h2 id="shop-categories-title" className="shop-side-title">
        Categories
      </h2>
      <ul ref={row}>
        {[{ id: undefined, name: "All" }, ...categories].map((c) => {
          const current = c.id === query.category;
          return (
            <li key={c.name}>
              <Link
                to={shopHref({ ...query, category: c.id })}
                className="shop-category"
                aria-current={current ? "page" : undefined}
                preventScrollReset
              >
                <CategoryIcon name={c.name} />
                {c.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ShopFilters({ query }: { query: CatalogueQuery }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [text, setText] = useState(query.q);
  // The search last sent to the URL: the URL's own changes (back, a category link) reset the box; the
  // answer to what the visitor typed does not, or it would undo the keys typed while it loaded.
  const sent = useRef(query.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    if (query.q !== sent.current) {
      sent.current = query.q;
      setText(query.q);
    }
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (next: Partial<CatalogueQuery>, replace: boolean) => {
    clearTimeout(timer.current);
    const target = { ...query, ...next };
    sent.current = target.q ?? "";
    void navigate(shopHref(target), { replace, preventScrollReset: true });
  };

  return (
    <Form method="get" action="/shop" className="shop-filters" role="search" preventScrollReset>
      {query.category === undefined ? null : <input type="hidden" name="category" value={query.category} />}
      <div className="shop-field shop-field--search">
        <label htmlFor="shop-q">Search</label>
        <input
          id="shop-q"
          type="search"
          name="q"
          placeholder="Search products..."
          maxLength={SEARCH_MAX}
          value={text}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setText(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => show({ q: value.trim() }, true), SEARCH_DEBOUNCE_MS);
          }}
        />
      </div>
      <div className="shop-field">
        <label htmlFor="shop-sort">Sort by</label>
        <select
          id="shop-sort"
          name="sort"
          key={query.sort}
          defaultValue={query.sort}
          onChange={(e) => show({ q: text.trim(), sort: e.currentTarget.value as ShopSort }, false)}
        >
          {SHOP_SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {/* With JavaScript the list already follows the box and the select; Enter still submits. */}
      <button type="submit" className="btn btn-primary shop-apply" hidden={hydrated}>
        Apply
      </button>
    </Form>
  );
}
