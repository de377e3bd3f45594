import { desc, eq, lte } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { cacheEntries, reviews } from "@db/schema";
import { reviewsStored } from "~/lib/cache.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { fetchPlaceReviews, type PlacesConfig } from "./places.server";
import type { ReviewView } from "./types";

/**
 * Reviews shown in the footer carousel and on /review (DECISIONS 19).
 *
 * Without Places configuration the stored (seeded) reviews are shown. With
 * GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID, the server fetches the place's
 * reviews at most once per 24 hours (the `cache_entries` row is shared by
 * every instance), stores them with source 'google' and shows them instead.
 * A failed fetch is logged, retried after a short pause, and the reviews
 * already in the database keep being served.
 */
export const PLACES_CACHE_KEY = "google-places-reviews";
export const PLACES_TTL_MS = 24 * 60 * 60 * 1000;
/** After a failure, wait this long before asking Google again. */
export const PLACES_RETRY_MS = 15 * 60 * 1000;
/** How long one instance may hold the fetch before another may try. */
const CLAIM_MS = 60 * 1000;

export type ReviewsOptions = {
  /** Places configuration; defaults to the environment (undefined when not configured). */
  places?: PlacesConfig | null;
  now?: () => Date;
  logger?: Pick<typeof log, "warn" | "info">;
};

export function placesConfigFromEnv(): PlacesConfig | null {
  const e = env();
  return e.GOOGLE_PLACES_API_KEY && e.GOOGLE_PLACE_ID
    ? { apiKey: e.GOOGLE_PLACES_API_KEY, placeId: e.GOOGLE_PLACE_ID }
    : null;
}

export async function listReviews(db: Database, limit = 12, opts: ReviewsOptions = {}): Promise<ReviewView[]> {
  const places = opts.places === undefined ? placesConfigFromEnv() : opts.places;
  if (places) await refreshPlacesReviews(db, places, opts);

  const columns = {
    id: reviews.id,
    authorName: reviews.authorName,
    profilePhotoUrl: reviews.profilePhotoUrl,
    rating: reviews.rating,
    text: reviews.text,
    locationSlug: reviews.locationSlug,
  };
  const google = await db
    .select(columns)
    .from(reviews)
    .where(eq(reviews.source, "google"))
    .orderBy(desc(reviews.publishedAt))
    .limit(limit);
  if (google.length > 0) return google;
  return db
    .select(columns)
    .from(reviews)
    .where(eq(reviews.source, "seed"))
    .orderBy(desc(reviews.publishedAt))
    .limit(limit);
}

/**
 * Fetches the Places reviews when the shared cache entry has expired (one
 * indexed read of `cache_entries`; the footer data that calls this is itself
 * kept a minute, lib/cache.server.ts). Never throws: failures are logged and
 * the stored reviews stay in place.
 */
export function refreshPlacesReviews(db: Database, places: PlacesConfig, opts: ReviewsOptions = {}): Promise<void> {
  return doRefresh(db, places, (opts.now ?? (() => new Date()))(), opts.logger ?? log);
}

async function doRefresh(db: Database, places: PlacesConfig, now: Date, logger: Pick<typeof log, "warn" | "info">) {
  try {
    const [entry] = await db
      .select({ expiresAt: cacheEntries.expiresAt })
      .from(cacheEntries)
      .where(eq(cacheEntries.key, PLACES_CACHE_KEY));
    if (entry && entry.expiresAt > now) return;
    // Claim the fetch: only the instance whose upsert changes an expired row asks Google.
    const claimed = await db
      .insert(cacheEntries)
      .values({
        key: PLACES_CACHE_KEY,
        value: { status: "fetching" },
        expiresAt: new Date(now.getTime() + CLAIM_MS),
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: cacheEntries.key,
        set: { value: { status: "fetching" }, expiresAt: new Date(now.getTime() + CLAIM_MS), updatedAt: now },
        setWhere: lte(cacheEntries.expiresAt, now),
      })
      .returning({ key: cacheEntries.key });
    if (claimed.length === 0) return;

    let fetched;
    try {
      fetched = await fetchPlaceReviews(places);
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "Google Places reviews fetch failed; serving stored reviews");
      await setEntry(
        db,
        { status: "error", error: (error as Error).message, at: now.toISOString() },
        now.getTime() + PLACES_RETRY_MS,
        now,
      );
      return;
    }

    const expires = now.getTime() + PLACES_TTL_MS;
    await db.transaction(async (tx) => {
      if (fetched.length > 0) {
        await tx.delete(reviews).where(eq(reviews.source, "google"));
        await tx
          .insert(reviews)
          .values(fetched.map((r) => ({ ...r, source: "google", locationSlug: null, fetchedAt: now })));
      }
      await tx
        .update(cacheEntries)
        .set({
          value: { status: "ok", count: fetched.length, at: now.toISOString() },
          expiresAt: new Date(expires),
          updatedAt: now,
        })
        .where(eq(cacheEntries.key, PLACES_CACHE_KEY));
    });
    logger.info({ count: fetched.length }, "Google Places reviews refreshed");
    reviewsStored();
  } catch (error) {
    // A database problem: the page still renders with whatever is stored.
    logger.warn({ err: (error as Error).message }, "reviews refresh failed");
  }
}

async function setEntry(db: Database, value: Record<string, unknown>, expiresAtMs: number, now: Date) {
  await db
    .update(cacheEntries)
    .set({ value, expiresAt: new Date(expiresAtMs), updatedAt: now })
    .where(eq(cacheEntries.key, PLACES_CACHE_KEY));
}
