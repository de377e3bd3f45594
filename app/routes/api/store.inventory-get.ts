import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { apiProduct, getProduct } from "~/shop/catalogue.server";
import { parseId } from "~/shop/query";
import type { Route } from "./+types/store.inventory-get";

/** GET /api/store/inventory/get/{id} (SPEC §7): one product with its customFields; 404 for an unknown or malformed id. */
export async function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  const product = id === null ? null : await getProduct(await getDb(), id);
  if (!product) {
    return Response.json(
      { success: false, message: "Product not found." },
      { status: 404, headers: sharedCacheHeaders() },
    );
  }
  return Response.json(apiProduct(product), { headers: sharedCacheHeaders() });
}
