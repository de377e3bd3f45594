import { z } from "~/lib/zod";

/**
 * Google Places "Place Details" (legacy JSON endpoint), asked for reviews only.
 * Runs on the server with the server key; the key is never logged or sent to
 * the browser.
 */
export const PLACES_DETAILS_URL = "https://maps.googleapis.com/maps/api/place/details/json";

export type PlacesConfig = {
  apiKey: string;
  placeId: string;
  /** Override for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  timeoutMs?: number;
};

const placeReview = z.object({
  author_name: z.string(),
  profile_photo_url: z.string().optional(),
  rating: z.number().min(0).max(5),
  text: z.string().optional().default(""),
  time: z.number().optional(),
});

const detailsResponse = z.object({
  status: z.string(),
  error_message: z.string().optional(),
  result: z.object({ reviews: z.array(placeReview).optional() }).optional(),
});

export type PlaceReview = {
  authorName: string;
  profilePhotoUrl: string | null;
  rating: number;
  text: string;
  publishedAt: Date | null;
};

export class PlacesError extends Error {
  override name = "PlacesError";
}

/** Fetches a place's reviews. Throws PlacesError (without the key in its message) on any failure. */
export async function fetchPlaceReviews(config: PlacesConfig): Promise<PlaceReview[]> {
  const url = new URL(PLACES_DETAILS_URL);
  url.searchParams.set("place_id", config.placeId);
  url.searchParams.set("fields", "reviews");
  url.searchParams.set("reviews_sort", "newest");
  url.searchParams.set("key", config.apiKey);

  let response: Response;
  try {
    response = await (config.fetch ?? fetch)(url, {
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(config.timeoutMs ?? 5000),
    });
  } catch (error) {
    throw new PlacesError(`request failed: ${error instanceof Error ? error.name : "unknown error"}`);
  }
  if (!response.ok) throw new PlacesError(`HTTP ${response.status}`);

  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new PlacesError("response is not JSON");
  }
  const parsed = detailsResponse.safeParse(body);
  if (!parsed.success) throw new PlacesError("unexpected response shape");
  if (parsed.data.status !== "OK") throw new PlacesError(`status ${parsed.data.status}`);

  return (parsed.data.result?.reviews ?? [])
    .filter((r) => r.text.trim() !== "")
    .map((r) => ({
      authorName: r.author_name,
      profilePhotoUrl: r.profile_photo_url ?? null,
      rating: Math.round(r.rating),
      text: r.text.trim(),
      publishedAt: r.time ? new Date(r.time * 1000) : null,
    }));
}
