import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { listCategories } from "~/shop/catalogue.server";

/** GET /api/store/category/list (SPEC §7): the categories that hold products ('All' is the client's). */
export async function loader() {
  return Response.json(await listCategories(await getDb()), { headers: sharedCacheHeaders() });
}
