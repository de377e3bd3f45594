import { Carousel } from "@mantine/carousel";
import type { EmblaCarouselType } from "embla-carousel";
import { useEffect, useState, type FocusEvent } from "react";
import type { ReviewView } from "~/reviews/types";
import { MantineScope } from "./MantineScope";
import { Stars } from "./Stars";
import { PauseIcon, PlayIcon } from "./icons";

export { Stars };

const DELAY_MS = 3000;
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

const prefersReducedMotion = () => window.matchMedia?.(REDUCED_MOTION).matches ?? false;

/**
 * Footer review carousel (SPEC §9): one review at every width, loops forever,
 * 400 ms transition (embla duration ≈ 25), arrows hidden below 1024px, and
 * autoplay every 3000 ms — within WCAG 2.2.2 and the APG carousel pattern
 * (docs/decisions/062-colour-mode-and-carousel.md):
 *
 *  - a visible "Pause reviews" / "Play reviews" button before the slides;
 *  - autoplay holds while the pointer is over the slides, while focus is in
 *    them (the arrows) and during a swipe, and resumes after unless paused;
 *  - a visitor who prefers reduced motion starts paused: it never moves on
 *    its own unless they press Play;
 *  - the slide's announcement is `aria-live="off"` while it turns on its own
 *    and "polite" otherwise, so only a move a person makes is read out
 *    (Mantine's own "Slide N of M" status, always polite, is hidden in CSS).
 *
 * Loaded in the browser only (Footer.tsx): the server and JavaScript-less
 * visitors get the reviews as a scrollable row.
 */
export default function ReviewCarousel({ reviews }: { reviews: ReviewView[] }) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const [paused, setPaused] = useState(prefersReducedMotion);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [selected, setSelected] = useState(0);
  const playing = !paused && !hovered && !focused && !dragging;

  useEffect(() => {
    if (!embla) return;
    const select = () => setSelected(embla.selectedScrollSnap());
    const down = () => setDragging(true);
    const up = () => setDragging(false);
    embla.on("select", select).on("pointerDown", down).on("pointerUp", up);
    return () => {
      embla.off("select", select).off("pointerDown", down).off("pointerUp", up);
    };
  }, [embla]);

  useEffect(() => {
    if (!embla || !playing) return;
    const timer = window.setInterval(() => embla.scrollNext(), DELAY_MS);
    return () => window.clearInterval(timer);
  }, [embla, playing]);

  useEffect(() => {
    const media = window.matchMedia?.(REDUCED_MOTION);
    const follow = () => {
      if (media?.matches) setPaused(true);
    };
    media?.addEventListener("change", follow);
    return () => media?.removeEventListener("change", follow);
  }, []);

  if (reviews.length === 0) return null;
  const current = reviews[selected] ?? reviews[0]!;
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };
  return (
    <MantineScope>
      <div className="review-carousel-frame">
        <button
          type="button"
          className="review-carousel-toggle"
          data-testid="reviews-play-pause"
          onClick={() => setPaused((was) => !was)}
        >
          {paused ? <PlayIcon size={16} /> : <PauseIcon size={16} />}
          {paused ? "Play reviews" : "Pause reviews"}
        </button>
        <Carousel
          className="review-carousel"
          aria-label="Customer reviews"
          slideSize="100%"
          slideGap="md"
          withIndicators={false}
          emblaOptions={{ loop: true, duration: 25, dragThreshold: 80, align: "start" }}
          getEmblaApi={setEmbla}
          previousControlProps={{ "aria-label": "Previous review" }}
          nextControlProps={{ "aria-label": "Next review" }}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          onFocus={() => setFocused(true)}
          onBlur={leave}
        >
          {reviews.map((r, i) => (
            <Carousel.Slide key={r.id} aria-label={`Review ${i + 1} of ${reviews.length}`}>
              <figure className="review-slide">
                <Stars rating={r.rating} />
                <blockquote>{r.text}</blockquote>
                <figcaption>{r.authorName}</figcaption>
              </figure>
            </Carousel.Slide>
          ))}
        </Carousel>
        <p
          className="visually-hidden"
          data-testid="reviews-live"
          aria-live={playing ? "off" : "polite"}
          aria-atomic="true"
        >
          {`Review ${selected + 1} of ${reviews.length}, ${current.rating} stars, by ${current.authorName}: ${current.text}`}
        </p>
      </div>
    </MantineScope>
  );
}
