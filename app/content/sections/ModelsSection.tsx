import type { Section } from "../page-types";
import { ActionLink, SectionFrame } from "./primitives";

type Models = Extract<Section, { kind: "models" }>;

/** Product models side by side, each with its figures and a downloadable spec sheet. */
export function ModelsSection({ section }: { section: Models }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <div className="models-grid">
        {section.models.map((m) => (
          <article key={m.name} className="model-card" data-reveal="" aria-labelledby={`model-${m.name}`}>
            <img
              src={m.image.src}
              alt={m.image.alt}
              width={m.image.width}
              height={m.image.height}
              loading="lazy"
              decoding="async"
            />
            <div className="model-card-body">
              <h3 id={`model-${m.name}`} className="model-name">
                {m.name}
              </h3>
              <p className="model-headline">{m.headline}</p>
              <p>{m.text}</p>
              <dl className="spec-table spec-table--compact">
                {m.specs.map((s) => (
                  <div key={s.label} className="spec-row">
                    <dt>{s.label}</dt>
                    <dd>{s.value}</dd>
                  </div>
                ))}
              </dl>
              <ActionLink link={m.pdf} />
            </div>
          </article>
        ))}
      </div>
    </SectionFrame>
  );
}
