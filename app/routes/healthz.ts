import { cachePolicy } from "~/http/cache-control";
import { databaseAnswers } from "~/lib/db.server";

/** Health check for fly.io and load balancers: 200 when the database answers (within 2 s). */
export async function loader() {
  const headers = cachePolicy.noStore;
  if (await databaseAnswers()) return Response.json({ db: "ok" }, { headers });
  return Response.json({ db: "unavailable" }, { status: 503, headers: { ...headers, "Retry-After": "5" } });
}
