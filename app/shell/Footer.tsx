import { useEffect, useId, useRef, useState, type ComponentType } from "react";
import { company } from "~/lib/company";
import type { ReviewView } from "~/reviews/types";
import { SmartLink } from "./SmartLink";
import { SiteLink } from "./SiteLink";
import { ClockIcon, MapPinIcon, PhoneIcon } from "./icons";
import { siteMap } from "./navigation";
import { Stars } from "./Stars";
import type { LocationView } from "./shell-data.server";

type CarouselProps = { reviews: ReviewView[] };

/**
 * The review carousel (embla + Mantine) sits below the fold
 * (docs/decisions/006-below-the-fold-javascript-waits.md). The server renders
 * every review as plain markup: without JavaScript a row that scrolls
 * sideways (one review wide, snapping; keyboard-scrollable), with JavaScript
 * the first review, with the room the carousel's Pause button will take
 * (`@media (scripting: …)` in shell.css). The carousel's code is fetched only
 * when the footer comes near the screen (or at once where IntersectionObserver
 * is missing), so a visitor who never scrolls down never downloads it
 * (docs/decisions/062-colour-mode-and-carousel.md).
 */
function Reviews({ reviews }: CarouselProps) {
  const [Carousel, setCarousel] = useState<ComponentType<CarouselProps> | null>(null);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reviews.length === 0) return;
    let live = true;
    const load = () => void import("./ReviewCarousel").then((m) => live && setCarousel(() => m.default));
    const element = placeholder.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      load();
      return () => {
        live = false;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      // Within a fifth of a screen below the view: its mount (Embla measures every slide) is a long task
      // at 4× CPU, which a short page would otherwise pay while it hydrates (docs/decisions/066); the
      // static first review stands in the same place until it is ready.
      { rootMargin: "0px 0px 20% 0px" },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [reviews.length]);
  if (Carousel) return <Carousel reviews={reviews} />;
  if (reviews.length === 0) return null;
  return (
    <div className="review-carousel-frame review-carousel-frame--static" ref={placeholder}>
      {/* A region that scrolls: focusable, so a keyboard can scroll it (no JavaScript needed). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="review-carousel review-carousel--static" role="region" aria-label="Customer reviews" tabIndex={0}>
        {reviews.map((r, i) => (
          <figure className="review-slide" key={r.id} aria-label={`Review ${i + 1} of ${reviews.length}`}>
            <Stars rating={r.rating} />
            <blockquote>{r.text}</blockquote>
            <figcaption>{r.authorName}</figcaption>
          </figure>
        ))}
      </div>
    </div>
  );
}

export function LocationCard({ location }: { location: LocationView }) {
  const headingId = useId();
  return (
    <article className="location-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{location.name}</h3>
      <p className="location-line">
        <MapPinIcon size={18} />
        <span>
          {location.address}
          <br />
          {location.city}
        </span>
      </p>
      {location.hours ? (
        <p className="location-line">
          <ClockIcon size={18} />
          <span>{location.hours}</span>
        </p>
      ) : null}
      <p className="location-line">
        <PhoneIcon size={18} />
        <a href={location.phoneLink}>{location.phone}</a>
      </p>
      <a className="directions-link" href={location.mapLink} target="_blank" rel="noopener noreferrer">
        Get Directions<span className="visually-hidden"> to {location.name} (opens in a new tab)</span>
      </a>
    </article>
  );
}

export function Footer({
  locations,
  reviews,
  year,
}: {
  locations: LocationView[];
  reviews: ReviewView[];
  year: number;
}) {
  return (
    <footer className="site-footer">
      <section className="footer-reviews" aria-labelledby="footer-reviews-title">
        <div className="shell-container">
          <h2 id="footer-reviews-title" className="footer-heading">
            What Our Customers Say
          </h2>
          <Reviews reviews={reviews} />
          <p className="footer-reviews-link">
            <SiteLink to="/review">Read more reviews or leave your own</SiteLink>
          </p>
        </div>
      </section>

      <section className="footer-main" aria-label="Locations and contact">
        <div className="shell-container">
          <div className="footer-locations">
            {locations.map((l) => (
              <LocationCard key={l.slug} location={l} />
            ))}
          </div>

          <div className="emergency-block">
            <h2>24/7 Emergency Service</h2>
            <p>Door stuck open, off its track or broken spring? Our technicians answer day and night.</p>
            <a className="emergency-phone" href={company.emergencyPhone.href}>
              <PhoneIcon size={22} /> {company.emergencyPhone.display}
            </a>
          </div>

          <nav className="footer-sitemap" aria-label="Site map">
            {siteMap.map((col) => (
              <div key={col.heading}>
                <h2 className="footer-col-heading">{col.heading}</h2>
                <ul>
                  {col.links.map((link) => (
                    <li key={link.to}>
                      <SmartLink link={link} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>

          <div className="footer-bottom">
            <ul className="social-links" aria-label="Social media">
              {company.social.map((s) => (
                <li key={s.name}>
                  <a href={s.href} target="_blank" rel="noopener noreferrer">
                    {s.name}
                  </a>
                </li>
              ))}
            </ul>
            <p className="copyright">
              © {year} {company.name}. All rights reserved. · <a href={`mailto:${company.email}`}>{company.email}</a> ·{" "}
              <a href={company.phone.href}>{company.phone.display}</a>
            </p>
          </div>
        </div>
      </section>
    </footer>
  );
}
