import type { Section } from "../page-types";
import { RichText } from "./primitives";

type Prose = Extract<Section, { kind: "prose" }>;

/**
 * A section of plain reading (the privacy notice, the terms): its heading is an anchor other pages
 * link to (`/terms#prices`), its entries a heading and a short list of facts each, readable on a
 * phone without a table's sideways scroll.
 */
export function ProseSection({ section }: { section: Prose }) {
  return (
    <section
      id={section.id}
      className={`section content-section content-prose${section.tint ? " section--tint" : ""}`}
      aria-labelledby={`${section.id}-title`}
    >
      <div className="shell-container content-narrow">
        <h2 id={`${section.id}-title`} className="section-title section-title--left">
          {section.heading}
        </h2>
        {section.paragraphs?.map((p) => (
          <p key={p}>
            <RichText text={p} />
          </p>
        ))}
        {section.list ? (
          <ul className="prose-list">
            {section.list.map((item) => (
              <li key={item}>
                <RichText text={item} />
              </li>
            ))}
          </ul>
        ) : null}
        {section.entries?.map((entry) => (
          <div key={entry.title} className="prose-entry">
            <h3>{entry.title}</h3>
            <dl>
              {entry.facts.map((fact) => (
                <div key={fact.label} className="prose-fact">
                  <dt>{fact.label}</dt>
                  <dd>
                    <RichText text={fact.value} />
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        {section.after?.map((p) => (
          <p key={p}>
            <RichText text={p} />
          </p>
        ))}
      </div>
    </section>
  );
}
