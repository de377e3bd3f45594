import type { Section } from "../page-types";
import { ActionLinks, slugify } from "./primitives";

type Cta = Extract<Section, { kind: "cta" }>;

/** A closing call to action band. */
export function CtaSection({ section }: { section: Cta }) {
  const anchor = section.id ?? slugify(section.heading);
  return (
    <section id={section.id} className="section content-cta" aria-labelledby={`${anchor}-title`}>
      <div className="shell-container content-cta-inner" data-reveal="">
        <h2 id={`${anchor}-title`}>{section.heading}</h2>
        <p>{section.text}</p>
        <ActionLinks links={section.links} />
      </div>
    </section>
  );
}
