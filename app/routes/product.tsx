import { data } from "react-router";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { pageHead } from "~/shell/page-head";
import { getProduct } from "~/shop/catalogue.server";
import { optionFieldName, ProductPage, QUANTITY_FIELD, type ProductPageData } from "~/shop/ProductPage";
import { priceWithOptions } from "~/shop/pricing";
import { parseId } from "~/shop/query";
import { ShopError } from "~/shop/ShopError";
import shopCss from "~/shop/shop.css?url";
import type { Route } from "./+types/product";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: shopCss }];

export const meta: Route.MetaFunction = (args) => {
  const loaded = args.loaderData as ProductPageData | undefined;
  if (!loaded?.found) {
    return [
      ...pageHead(args, {
        title: "Product not found",
        description: "This product is not in our catalogue.",
        path: "/shop",
      }),
      { name: "robots", content: "noindex" },
    ];
  }
  const { product } = loaded;
  return pageHead(args, {
    title: product.name || "Unknown Product",
    description: product.description || "No description available.",
    path: `/product/${product.id}`,
    image: product.image,
  });
};

/**
 * One product; 404 with 'Product not found.' for an unknown or malformed id.
 * Options chosen on the page without JavaScript arrive as query parameters
 * ('Update price', with the quantity chosen); choices the product does not
 * offer are ignored and the first options shown. The page without choices is the same for everyone:
 * the shared page cache keeps it.
 */
export async function loader({ params, url }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const product = id === null ? null : await getProduct(await getDb(), id);
  if (!product) return data<ProductPageData>({ found: false }, { status: 404 });

  const chosen: Record<string, string> = {};
  for (const field of product.customFields) {
    const label = url.searchParams.get(optionFieldName(field.name));
    if (label !== null && field.options.some((o) => o.label === label)) chosen[field.name] = label;
  }
  const price = priceWithOptions(product, chosen);
  const selected = price.ok ? Object.fromEntries(price.options.map((o) => [o.name, o.label])) : {};
  // The quantity 'Update price' carried (no JavaScript): kept; anything else, one.
  const quantity = parseId(url.searchParams.get(QUANTITY_FIELD)) ?? 1;
  return data<ProductPageData>(
    { found: true, product, selected, quantity },
    { headers: url.search ? cachePolicy.revalidate : sharedCacheHeaders() },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function Product({ loaderData }: Route.ComponentProps) {
  return <ProductPage data={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ShopError error={error} title="Product details" />;
}
