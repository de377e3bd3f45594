import { data } from "react-router";
import { formBootstrap } from "~/forms/quote/embed.server";
import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/lib/page-cache.server";
import { mapsBrowserKey } from "~/maps/csp.server";
import { serviceAreaMap } from "~/maps/service-area.server";
import { listReviews } from "~/reviews/reviews.server";
import { locationReviewCards } from "./data/location-reviews";
import type { ContentPageData } from "./page-types";
import { findContentPage } from "./pages";
import { cachePolicy } from "~/http/cache-control";

/** Everything a content page needs: its data, plus the map or reviews its sections show. */
export async function loadContentPage(pathname: string): Promise<ContentPageData> {
  const page = findContentPage(pathname);
  if (!page) return { found: false };
  const kinds = new Set(page.sections.map((s) => s.kind));
  const result: ContentPageData = { found: true, page };
  if (kinds.has("service-map")) {
    result.map = serviceAreaMap();
    const key = mapsBrowserKey();
    if (key) result.mapsKey = key;
  }
  if (kinds.has("reviews")) result.reviews = await listReviews(await getDb());
  if (kinds.has("location-reviews")) result.locationReviews = locationReviewCards;
  if (kinds.has("quote-form")) result.leadForm = formBootstrap();
  return result;
}

/** The loader of every content route: the page's data, 404 for an unknown path. */
export async function contentPageLoader({ url }: { url: URL }) {
  // `url` is the page's URL, also for client navigations (`request.url` then ends in ".data").
  const result = await loadContentPage(url.pathname);
  return data(result, { status: result.found ? 200 : 404, headers: contentPageHeaders(result) });
}

/**
 * Pages that look the same to every visitor opt into the shared page cache.
 * Pages with the simple quote form do not, and no cache may keep them (as
 * /contact): the form's captcha challenge is single use, per visitor.
 */
export function contentPageHeaders(data: ContentPageData): HeadersInit {
  if (!data.found) return {};
  if (data.page.sections.some((s) => s.kind === "quote-form")) return cachePolicy.private;
  return sharedCacheHeaders();
}
