import { cachePolicy } from "~/http/cache-control";
import { coverageOf } from "~/maps/coverage.server";
import type { Route } from "./+types/service-area";

/**
 * GET /api/service-area?zip=48502 (DECISIONS 30): is a ZIP code inside the
 * service area, and which location is nearest. What the booking form asks as
 * soon as its ZIP has five digits; the booking itself is checked again on the
 * server before any hold or charge. No database, no rate limit: the input is
 * at most ten characters and the answer the same for everyone (an hour in
 * caches; it changes only with the package's data).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const zip = new URL(request.url).searchParams.get("zip") ?? "";
  if (zip.length > 10)
    return Response.json({ error: "zip is a 5-digit US ZIP code" }, { status: 400, headers: cachePolicy.noStore });
  const coverage = await coverageOf(zip);
  if (coverage.status === "invalid")
    return Response.json(
      { ...coverage, error: "zip is a 5-digit US ZIP code" },
      { status: 400, headers: cachePolicy.noStore },
    );
  return Response.json(coverage, { headers: cachePolicy.publicHour });
}
