import { StarIcon } from "./icons";

/** A star rating out of 5, announced as "N out of 5 stars". */
export function Stars({ rating, label = true }: { rating: number; label?: boolean }) {
  return (
    <span
      className="stars"
      role={label ? "img" : undefined}
      aria-label={label ? `${rating} out of 5 stars` : undefined}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} filled={n <= Math.round(rating)} />
      ))}
    </span>
  );
}
