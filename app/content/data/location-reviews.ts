import { locationData } from "~/lib/company";

/** SPEC §3 "Location review card": name, rating, full rating text, address, review link. */
export type LocationReviewCard = {
  slug: string;
  name: string;
  rating: number;
  ratingText: string;
  address: string;
  reviewLink: string;
};

/** Google ratings per location as shown on the review page (fictional place ids). */
const ratings: Record<string, { rating: number; count: number; placeId: string }> = {
  flint: { rating: 4.9, count: 312, placeId: "ChIJexampleDoverFlint" },
  lansing: { rating: 4.8, count: 187, placeId: "ChIJexampleDoverLansing" },
  pontiac: { rating: 4.8, count: 154, placeId: "ChIJexampleDoverPontiac" },
  saginaw: { rating: 4.9, count: 241, placeId: "ChIJexampleDoverSaginaw" },
};

/** The order of the spec: Flint, Lansing, Pontiac, Saginaw. */
const order = ["flint", "lansing", "pontiac", "saginaw"];

export const locationReviewCards: LocationReviewCard[] = order.map((slug) => {
  const l = locationData.find((x) => x.slug === slug)!;
  const r = ratings[slug]!;
  return {
    slug,
    name: l.name.replace(/ Showroom$/, ""),
    rating: r.rating,
    ratingText: `${r.rating.toFixed(1)} out of 5 stars from ${r.count} Google reviews`,
    address: `${l.address}, ${l.city}`,
    reviewLink: `https://search.google.com/local/writereview?placeid=${r.placeId}`,
  };
});

/** The referral and review programme (SPEC §2 Reviews / referral page). */
export const referralProgram = {
  headline: "Earn up to $150 for Sharing Your Experience",
  monthlyPrize: "$100",
  perReferral: "$50",
  maxReward: "$150",
};
