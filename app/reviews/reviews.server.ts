import { desc, eq } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { reviews } from "@db/schema";
import type { ReviewView } from "./types";

/**
 * The reviews the site shows: Google's cached reviews when there are any,
 * otherwise the stored (seeded) ones (DECISIONS 19).
 */
export async function listReviews(db: Database, limit = 12): Promise<ReviewView[]> {
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
