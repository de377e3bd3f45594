import type { Section } from "../page-types";
import { ContentIcon } from "./icons";
import { SectionFrame } from "./primitives";

type Features = Extract<Section, { kind: "features" }>;
type Steps = Extract<Section, { kind: "steps" }>;

/** Benefit / feature cards with an icon, a title and a sentence or two. */
export function FeatureGrid({ section }: { section: Features }) {
  const columns = section.items.length === 2 ? 2 : section.items.length % 3 === 0 ? 3 : 4;
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <ul className={`feature-grid feature-grid--${columns}`}>
        {section.items.map((f) => (
          <li key={f.title} className="feature-card" data-reveal="">
            <span className="feature-icon">
              <ContentIcon name={f.icon ?? "check"} size={26} />
            </span>
            <h3 className="feature-title">{f.title}</h3>
            <p>{f.text}</p>
          </li>
        ))}
      </ul>
    </SectionFrame>
  );
}

/** Numbered steps of a process. */
export function StepsSection({ section }: { section: Steps }) {
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <ol className={`steps steps--${section.steps.length}`}>
        {section.steps.map((s, i) => (
          <li key={s.title} className="step" data-reveal="">
            <span className="step-number" aria-hidden="true">
              {i + 1}
            </span>
            <h3 className="feature-title">{s.title}</h3>
            <p>{s.text}</p>
          </li>
        ))}
      </ol>
    </SectionFrame>
  );
}
