import type { ReviewView } from "~/reviews/types";
import { MapPinIcon } from "~/shell/icons";
import { Stars } from "~/shell/Stars";
import type { LocationReviewCard } from "../data/location-reviews";
import { SectionFrame } from "./primitives";

/** The four location cards of the review page: rating, rating text, address and a Google review link. */
export function LocationReviewsSection({
  heading,
  intro,
  cards,
}: {
  heading: string;
  intro?: string;
  cards: LocationReviewCard[];
}) {
  return (
    <SectionFrame id="locations" heading={heading} intro={intro}>
      <ul className="location-review-grid" data-testid="location-review-cards">
        {cards.map((c) => (
          <li key={c.slug} className="location-review-card" data-reveal="">
            <h3>{c.name}</h3>
            <p className="location-review-rating">
              <span className="location-review-score">{c.rating.toFixed(1)}</span>
              <Stars rating={c.rating} />
            </p>
            <p className="location-review-text">{c.ratingText}</p>
            <p className="location-line">
              <MapPinIcon size={18} />
              <span>{c.address}</span>
            </p>
            <a className="btn btn-primary" href={c.reviewLink} target="_blank" rel="noopener noreferrer">
              Review {c.name} on Google<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
      </ul>
    </SectionFrame>
  );
}

function initials(name: string): string {
  return name
    .split(/[\s&]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/** The customer reviews (the same source as the footer carousel). */
export function ReviewListSection({
  heading,
  intro,
  reviews,
}: {
  heading: string;
  intro?: string;
  reviews: ReviewView[];
}) {
  if (reviews.length === 0) return null;
  return (
    <SectionFrame id="customer-reviews" heading={heading} intro={intro} tint>
      <ul className="review-grid" data-testid="review-list">
        {reviews.map((r) => (
          <li key={r.id} className="review-card" data-reveal="">
            <figure>
              <Stars rating={r.rating} />
              <blockquote>{r.text}</blockquote>
              <figcaption>
                <span className="review-avatar" aria-hidden="true">
                  {initials(r.authorName)}
                </span>
                {r.authorName}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </SectionFrame>
  );
}
