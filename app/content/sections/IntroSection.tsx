import type { Section } from "../page-types";
import { ActionLinks, RichText, slugify } from "./primitives";

type Intro = Extract<Section, { kind: "intro" }>;

/** The opening section of a page: heading, copy and action links, with an illustration beside them. */
export function IntroSection({ section }: { section: Intro }) {
  const anchor = section.id ?? slugify(section.heading);
  return (
    <section
      id={section.id}
      className={`section content-section content-intro${section.tint ? " section--tint" : ""}`}
      aria-labelledby={`${anchor}-title`}
    >
      <div className={`shell-container ${section.image ? "split" : "content-narrow"}`}>
        <div className="content-copy" data-reveal="">
          <h2 id={`${anchor}-title`} className="section-title section-title--left">
            {section.heading}
          </h2>
          {section.highlight ? <p className="content-highlight">{section.highlight}</p> : null}
          {section.paragraphs.map((p) => (
            <p key={p}>
              <RichText text={p} />
            </p>
          ))}
          <ActionLinks links={section.links} />
        </div>
        {section.image ? (
          <img
            className={`split-image content-intro-image${section.image.height > section.image.width ? " content-intro-image--tall" : ""}`}
            src={section.image.src}
            alt={section.image.alt}
            width={section.image.width}
            height={section.image.height}
            decoding="async"
          />
        ) : null}
      </div>
    </section>
  );
}
