import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { apiProduct, listProducts } from "~/shop/catalogue.server";

/** GET /api/store/inventory/list (SPEC §7): every product, the same for every caller, so cacheable. */
export async function loader() {
  const products = await listProducts(await getDb());
  return Response.json(products.map(apiProduct), { headers: sharedCacheHeaders() });
}
