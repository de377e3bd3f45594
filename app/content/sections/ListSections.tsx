import type { Section } from "../page-types";
import { ActionLinks, SectionFrame } from "./primitives";

type Checklist = Extract<Section, { kind: "checklist" }>;
type Specs = Extract<Section, { kind: "specs" }>;
type Timeline = Extract<Section, { kind: "timeline" }>;
type Swatches = Extract<Section, { kind: "swatches" }>;

/** A ticked list in columns (inspection points, inclusions, accessories). */
export function ChecklistSection({ section }: { section: Checklist }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <ul className={`checklist${section.items.length > 12 ? " checklist--3" : ""}`} data-reveal="">
        {section.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </SectionFrame>
  );
}

/** A two-column table of figures (operator specifications). */
export function SpecsSection({ section }: { section: Specs }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <dl className="spec-table" data-reveal="">
        {section.rows.map((r) => (
          <div key={r.label} className="spec-row">
            <dt>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
      <div className="content-center">
        <ActionLinks links={section.links} />
      </div>
    </SectionFrame>
  );
}

/** Dated milestones (company history). */
export function TimelineSection({ section }: { section: Timeline }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} tint={section.tint}>
      <ol className="timeline">
        {section.items.map((item) => (
          <li key={item.year} className="timeline-item" data-reveal="">
            <span className="timeline-year">{item.year}</span>
            <div>
              <h3 className="feature-title">{item.title}</h3>
              <p>{item.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </SectionFrame>
  );
}

/** Colour swatches with their names. */
export function SwatchesSection({ section }: { section: Swatches }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <ul className="swatches" data-reveal="" data-testid="colour-swatches">
        {section.colours.map((c) => (
          <li key={c.name}>
            <span className="swatch" style={{ backgroundColor: c.hex }} aria-hidden="true" />
            <span>{c.name}</span>
          </li>
        ))}
      </ul>
      {section.note ? <p className="content-note">{section.note}</p> : null}
    </SectionFrame>
  );
}
