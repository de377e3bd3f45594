import { data } from "react-router";
import { formBootstrap } from "~/forms/quote/embed.server";
import { getDb } from "~/lib/db.server";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { mapsBrowserKey } from "~/maps/csp.server";
import { serviceAreaMap } from "~/maps/service-area.server";
import { listReviews } from "~/reviews/reviews.server";
import { locationReviewCards } from "./data/location-reviews";
import type { ContentPageData } from "./page-types";
import { findContentPage } from "./pages";
import type { PolicySettings } from "./pages/policies";
import { env } from "~/lib/env.server";
import { cachePolicy } from "~/http/cache-control";

/** What the privacy notice and the terms say that the server's settings decide. */
function policySettings(): PolicySettings {
  const e = env();
  return {
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
    changeCutoffHours: e.BOOKING_CHANGE_CUTOFF_HOURS,
    rateLimitMinutes: Math.max(1, Math.round(e.RATE_LIMIT_WINDOW_SECONDS / 60)),
    recaptcha: Boolean(e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY),
    googleMaps: Boolean(e.GOOGLE_MAPS_API_KEY),
    googleReviews: Boolean(e.GOOGLE_PLACES_API_KEY && e.GOOGLE_PLACE_ID),
  };
}

/** Everything a content page needs: its data, plus the map or reviews its sections show. */
export async function loadContentPage(pathname: string): Promise<ContentPageData> {
  const page = findContentPage(pathname, policySettings());
  if (!page) return { found: false };
  const kinds = new Set(page.sections.map((s) => s.kind));
  const result: ContentPageData = { found: true, page };
  if (kinds.has("service-map")) {
    result.map = await serviceAreaMap();
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
