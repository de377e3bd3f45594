import { asc } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { locations } from "@db/schema";
import { listReviews } from "~/reviews/reviews.server";
import type { ReviewView } from "~/reviews/types";
import { keptPerKey } from "~/lib/cache.server";
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
 * Footer data changes rarely: it is one of the caches in lib/cache.server.ts
 * (kept a minute per instance, dropped when reviews are stored). When the
 * database cannot be read, pages keep the last footer data they had, or go
 * without locations and reviews, rather than failing: every page's content is
 * in the code, so a visitor can still read it and call during a database outage.
 */
let lastGood: ShellData = { locations: [], reviews: [] };

export async function getShellData(db: Database | Promise<Database>): Promise<ShellData> {
  try {
    lastGood = await keptShellData(await db);
  } catch (error) {
    log.warn(
      { err: { message: error instanceof Error ? error.message : String(error) } },
      "footer data unavailable; using the last known",
    );
  }
  return lastGood;
}

const keptShellData = keptPerKey(async (db: Database): Promise<ShellData> => ({
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
}));
