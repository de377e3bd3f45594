/** A review as pages show it (footer carousel, /review). */
export type ReviewView = {
  id: number;
  authorName: string;
  profilePhotoUrl: string | null;
  rating: number;
  text: string;
  locationSlug: string | null;
};
