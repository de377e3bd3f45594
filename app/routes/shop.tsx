import { data, redirect } from "react-router";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { pageHead } from "~/shell/page-head";
import { listCategories, listProducts } from "~/shop/catalogue.server";
import { ShopError } from "~/shop/ShopError";
import { ShopPage } from "~/shop/ShopPage";
import { readShopQuery, shopHref } from "~/shop/query";
import shopCss from "~/shop/shop.css?url";
import type { Route } from "./+types/shop";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: shopCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Shop",
    description:
      "Garage doors, openers, entry and patio doors, windows, accessories and service visits from our Michigan showrooms. All pricing includes installation.",
    path: "/shop",
  });

/**
 * The list for the URL's category, search and sort. A URL that says the same
 * in other words (the no-JS form's empty fields, an unknown sort) redirects to
 * the one way of writing it, so a shared link is short and /shop is one page.
 * The plain shop is the same for every visitor: the shared page cache keeps it;
 * a search is not kept (any text makes a new address, which would push the
 * pages worth keeping out of the cache).
 */
export async function loader({ url }: Route.LoaderArgs) {
  const query = readShopQuery(url.searchParams);
  const canonical = shopHref(query);
  if (`${url.pathname}${url.search}` !== canonical) throw redirect(canonical);
  const db = await getDb();
  const [categories, products] = await Promise.all([listCategories(db), listProducts(db, query)]);
  return data(
    {
      categories,
      products: products.map(({ id, name, priceCents, image, stock }) => ({
        id,
        name,
        priceCents,
        image,
        outOfStock: stock <= 0,
      })),
      query,
    },
    { headers: query.q ? cachePolicy.revalidate : sharedCacheHeaders() },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Shop({ loaderData }: Route.ComponentProps) {
  return <ShopPage data={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ShopError error={error} title="Shop Our Collection" />;
}
