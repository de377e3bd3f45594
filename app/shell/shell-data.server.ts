import { asc } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { locations } from "@db/schema";
import { listReviews } from "~/reviews/reviews.server";
import type { ReviewView } from "~/reviews/types";
import { log } from "~/lib/log.server";

export type LocationView = {
  slug: string;
  name: string;
  address: string;
  city: string;
  hours: string | null;
  phone: string;
  phoneLink: string;
  mapLink: string;
  lat: number;
  lng: number;
};

export type ShellData = { locations: LocationView[]; reviews: ReviewView[] };

/**
 * Footer data changes rarely; every instance keeps it for a minute so a page
 * view does not cost two queries. (A cache, not state: instances may differ
 * for at most a minute.) When the database cannot be read, pages keep the
 * last footer data they had, or go without locations and reviews, rather than
 * failing: every page's content is in the code, so a visitor can still read
 * it and call during a database outage.
 */
const TTL_MS = 60_000;
let cached: { at: number; data: Promise<ShellData> } | undefined;
let lastGood: ShellData = { locations: [], reviews: [] };

export async function getShellData(db: Database | Promise<Database>): Promise<ShellData> {
  try {
    lastGood = await freshShellData(await db);
  } catch (error) {
    log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, "footer data unavailable; using the last known");
  }
  return lastGood;
}

function freshShellData(db: Database): Promise<ShellData> {
  if (!cached || Date.now() - cached.at > TTL_MS) {
    const data = (async () => ({
      locations: await db
        .select({
          slug: locations.slug,
          name: locations.name,
          address: locations.address,
          city: locations.city,
          hours: locations.hours,
          phone: locations.phone,
          phoneLink: locations.phoneLink,
          mapLink: locations.mapLink,
          lat: locations.lat,
          lng: locations.lng,
        })
        .from(locations)
        .orderBy(asc(locations.sort)),
      reviews: await listReviews(db),
    }))();
    cached = { at: Date.now(), data };
    data.catch(() => {
      cached = undefined;
    });
  }
  return cached.data;
}

/** Drop the cached footer data (after reviews were refreshed). */
export function invalidateShellData(): void {
  cached = undefined;
}
