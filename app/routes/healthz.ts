import { ping } from "@db/client.server";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";

/** Health check for fly.io and load balancers: 200 when the database answers. */
export async function loader() {
  const headers = cachePolicy.noStore;
  try {
    const db = await getDb();
    if (await ping(db)) return Response.json({ db: "ok" }, { headers });
  } catch {
    // fall through
  }
  return Response.json({ db: "unavailable" }, { status: 503, headers: { ...headers, "Retry-After": "5" } });
}
