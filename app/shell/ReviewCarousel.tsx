import { Carousel } from "@mantine/carousel";
import Autoplay from "embla-carousel-autoplay";
import { useRef } from "react";
import type { ReviewView } from "~/reviews/types";
import { MantineScope } from "./MantineScope";
import { Stars } from "./Stars";

export { Stars };

/**
 * Footer review carousel (SPEC §9): autoplay every 3000 ms, loops forever,
 * one review at every width, 400 ms transition (embla duration ≈ 25),
 * arrows hidden below 1024px. Without JavaScript the first review shows.
 */
export default function ReviewCarousel({ reviews }: { reviews: ReviewView[] }) {
  const autoplay = useRef(Autoplay({ delay: 3000, stopOnInteraction: false, stopOnMouseEnter: true }));
  if (reviews.length === 0) return null;
  return (
    <MantineScope>
      <Carousel
        className="review-carousel"
        aria-label="Customer reviews"
        slideSize="100%"
        slideGap="md"
        withIndicators={false}
        emblaOptions={{ loop: true, duration: 25, dragThreshold: 80, align: "start" }}
        plugins={[autoplay.current]}
        previousControlProps={{ "aria-label": "Previous review" }}
        nextControlProps={{ "aria-label": "Next review" }}
      >
        {reviews.map((r) => (
          <Carousel.Slide key={r.id}>
            <figure className="review-slide">
              <Stars rating={r.rating} />
              <blockquote>{r.text}</blockquote>
              <figcaption>{r.authorName}</figcaption>
            </figure>
          </Carousel.Slide>
        ))}
      </Carousel>
    </MantineScope>
  );
}
