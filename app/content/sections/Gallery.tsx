import type { Section } from "../page-types";
import { ActionLink, ActionLinks, SectionFrame } from "./primitives";

type Gallery = Extract<Section, { kind: "gallery" }>;

/** A grid of picture cards (garage door styles, window types, operators), each with an optional link. */
export function GallerySection({ section }: { section: Gallery }) {
  const wide = section.items.length % 4 === 0 || section.items.length > 6;
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <ul className={`gallery-grid${wide ? " gallery-grid--4" : ""}`} data-testid={`${section.id}-cards`}>
        {section.items.map((item) => (
          <li key={item.name} className="gallery-card" data-reveal="">
            <img
              src={item.image}
              alt=""
              width={section.imageSize.width}
              height={section.imageSize.height}
              loading="lazy"
              decoding="async"
              style={{ aspectRatio: `${section.imageSize.width} / ${section.imageSize.height}` }}
            />
            <div className="gallery-card-body">
              <h3 className="gallery-card-title">{item.name}</h3>
              <p>{item.text}</p>
              {item.link ? (
                <div className="gallery-card-link">
                  <ActionLink link={{ variant: "outline", ...item.link }} />
                </div>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {section.links?.length ? (
        <div className="content-center">
          <ActionLinks links={section.links} />
        </div>
      ) : null}
    </SectionFrame>
  );
}
