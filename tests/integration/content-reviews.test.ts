import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Connection } from "@db/client.server";
import { cacheEntries, reviews } from "@db/schema";
import { seedReviews } from "@db/seed-data/reviews";
import { listReviews, PLACES_CACHE_KEY, PLACES_RETRY_MS, PLACES_TTL_MS } from "~/reviews/reviews.server";
import { reviewsStored } from "~/lib/cache.server";
import { getShellData } from "~/shell/shell-data.server";
import { createTestDatabase } from "../support/db";
import { placesHandlers, type PlacesMock } from "../mocks/places";

const KEY = "test-places-key-6f1c9d2e";
const PLACE = "ChIJtestPlaceDover";
const places = { apiKey: KEY, placeId: PLACE };
const mock: PlacesMock = { mode: "ok", requests: [] };
const server = setupServer(...placesHandlers(mock));

let conn: Connection;
const db = () => conn.db;
const logger = { warn: vi.fn(), info: vi.fn() };
const T0 = new Date("2026-03-02T10:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  conn = await createTestDatabase();
});
afterAll(async () => {
  server.close();
  await conn.close();
});
beforeEach(async () => {
  await db().delete(reviews).where(eq(reviews.source, "google"));
  await db().delete(cacheEntries);
  reviewsStored(); // the footer data kept by an earlier test goes
  mock.mode = "ok";
  mock.requests = [];
  logger.warn.mockReset();
  logger.info.mockReset();
});

describe("reviews from Google Places, cached in the database", () => {
  it("shows the stored reviews and asks nobody when Places is not configured", async () => {
    const list = await listReviews(db(), 12, { places: null });
    expect(list.map((r) => r.authorName).sort()).toEqual(seedReviews.map((r) => r.authorName).sort());
    expect(mock.requests).toHaveLength(0);
  });

  it("fetches the place's reviews once, stores them and serves them from the database for 24 hours", async () => {
    const first = await listReviews(db(), 12, { places, now: at(0), logger });
    expect(mock.requests).toHaveLength(1);
    const url = mock.requests[0]!;
    expect(url.searchParams.get("place_id")).toBe(PLACE);
    expect(url.searchParams.get("fields")).toBe("reviews");
    expect(url.searchParams.get("key")).toBe(KEY);

    // Text-less (rating-only) reviews are left out; the newest comes first.
    expect(first.map((r) => r.authorName)).toEqual(["Rosalind Okafor", "Victor Lindqvist"]);
    const stored = await db().select().from(reviews).where(eq(reviews.source, "google"));
    expect(stored).toHaveLength(2);
    const [entry] = await db().select().from(cacheEntries).where(eq(cacheEntries.key, PLACES_CACHE_KEY));
    expect(entry?.expiresAt.getTime()).toBe(T0.getTime() + PLACES_TTL_MS);
    expect(entry?.value).toMatchObject({ status: "ok", count: 2 });

    // Same process, later the same day: no second request.
    await listReviews(db(), 12, { places, now: at(60 * 60 * 1000), logger });
    // Any instance reads the shared cache entry.
    const again = await listReviews(db(), 12, { places, now: at(23 * 60 * 60 * 1000), logger });
    expect(again.map((r) => r.authorName)).toEqual(["Rosalind Okafor", "Victor Lindqvist"]);
    expect(mock.requests).toHaveLength(1);

    // After 24 hours the next page view refreshes them.
    await listReviews(db(), 12, { places, now: at(PLACES_TTL_MS + 1000), logger });
    expect(mock.requests).toHaveLength(2);
    expect(await db().select().from(reviews).where(eq(reviews.source, "google"))).toHaveLength(2);
  });

  it("asks Google once when several requests arrive together", async () => {
    await Promise.all(Array.from({ length: 5 }, () => listReviews(db(), 12, { places, now: at(0), logger })));
    expect(mock.requests).toHaveLength(1);
  });

  it.each(["http-500", "denied", "network"] as const)(
    "falls back to the stored reviews when Places fails (%s), logs without the key, and waits before retrying",
    async (mode) => {
      mock.mode = mode;
      const list = await listReviews(db(), 12, { places, now: at(0), logger });
      expect(list).toHaveLength(seedReviews.length);
      expect(list.every((r) => seedReviews.some((s) => s.authorName === r.authorName))).toBe(true);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(logger.warn.mock.calls)).not.toContain(KEY);
      const [entry] = await db().select().from(cacheEntries).where(eq(cacheEntries.key, PLACES_CACHE_KEY));
      expect(entry?.value).toMatchObject({ status: "error" });

      // Within the retry pause nobody asks again, on any instance.
      await listReviews(db(), 12, { places, now: at(PLACES_RETRY_MS - 1000), logger });
      expect(mock.requests).toHaveLength(1);
      // After it, the next request tries again and succeeds.
      mock.mode = "ok";
      const later = await listReviews(db(), 12, { places, now: at(PLACES_RETRY_MS + 1000), logger });
      expect(mock.requests).toHaveLength(2);
      expect(later[0]?.authorName).toBe("Rosalind Okafor");
    },
  );

  it("keeps serving the cached Google reviews when a later refresh fails", async () => {
    await listReviews(db(), 12, { places, now: at(0), logger });
    mock.mode = "http-500";
    const list = await listReviews(db(), 12, { places, now: at(PLACES_TTL_MS + 1000), logger });
    expect(mock.requests).toHaveLength(2);
    expect(list.map((r) => r.authorName)).toEqual(["Rosalind Okafor", "Victor Lindqvist"]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it("refreshes the footer data after new reviews arrive", async () => {
    const before = await getShellData(db());
    expect(before.reviews.some((r) => r.authorName === "Rosalind Okafor")).toBe(false);
    await listReviews(db(), 12, { places, now: at(0), logger });
    const after = await getShellData(db());
    expect(after.reviews.map((r) => r.authorName)).toEqual(["Rosalind Okafor", "Victor Lindqvist"]);
  });
});
