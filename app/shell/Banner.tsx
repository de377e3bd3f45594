import { useEffect, useRef } from "react";
import { SiteLink } from "./SiteLink";
import { useBannerUrl } from "./assets";

export type Crumb = { label: string; to?: string };

type BannerProps = {
  /** File name in the banner-images folder, e.g. "home.svg". */
  image: string;
  variant?: "full" | "short";
  title?: string;
  subtitle?: string;
  breadcrumbs?: Crumb[];
  /** Full variant: follow the image's aspect ratio instead of filling the viewport. */
  fitImage?: boolean;
  /** Hide the full variant's Request a Quote button. */
  hideQuoteButton?: boolean;
  children?: React.ReactNode;
};

/** Parallax factor and cap of the short banner (SPEC §9). */
export const PARALLAX_FACTOR = 0.3;

/**
 * The page banner (SPEC §2 "Banner").
 * Full: fills the viewport under the bars at ≥ 900px, 300px below that (or
 * follows the image's aspect ratio), with a Request a Quote button.
 * Short: title overlay; the image moves at 0.3× the scroll distance, capped at
 * a third of the banner height, after which the banner is marked scrolled.
 */
export function Banner({
  image,
  variant = "short",
  title,
  subtitle,
  breadcrumbs,
  fitImage,
  hideQuoteButton,
  children,
}: BannerProps) {
  const src = useBannerUrl(image);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (variant !== "short" || !el) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const img = el.querySelector<HTMLElement>(".banner-image");
    let frame = 0;
    const update = () => {
      frame = 0;
      const cap = el.offsetHeight / 3;
      const shift = Math.min(window.scrollY * PARALLAX_FACTOR, cap);
      if (img) img.style.transform = `translate3d(0, ${shift.toFixed(1)}px, 0)`;
      el.toggleAttribute("data-scrolled", shift >= cap);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [variant]);

  return (
    <section
      ref={ref}
      className={`banner banner--${variant}${fitImage ? " banner--fit" : ""}`}
      aria-label={title ? undefined : "Banner"}
      aria-labelledby={title ? "banner-title" : undefined}
    >
      <img className="banner-image" src={src} alt="" width={1600} height={600} fetchPriority="high" decoding="async" />
      <div className="banner-overlay">
        <div className="shell-container banner-content">
          {breadcrumbs && breadcrumbs.length > 0 ? (
            <nav aria-label="Breadcrumb" className="breadcrumbs">
              <ol>
                {breadcrumbs.map((c, i) => (
                  <li key={`${c.label}-${i}`}>
                    {c.to && i < breadcrumbs.length - 1 ? (
                      <SiteLink to={c.to}>{c.label}</SiteLink>
                    ) : (
                      <span aria-current="page">{c.label}</span>
                    )}
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}
          {title ? (
            <h1 id="banner-title" className="banner-title">
              {title}
            </h1>
          ) : null}
          {subtitle ? <p className="banner-subtitle">{subtitle}</p> : null}
          {children}
          {variant === "full" && !hideQuoteButton ? (
            <SiteLink to="/request-quote" className="btn btn-primary btn-lg banner-cta">
              Request a Quote
            </SiteLink>
          ) : null}
        </div>
      </div>
    </section>
  );
}
