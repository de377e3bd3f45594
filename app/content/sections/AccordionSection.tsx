import type { AccordionItem, Section } from "../page-types";
import { ChevronDownIcon } from "~/shell/icons";
import { ActionLink, RichText, SectionFrame } from "./primitives";

type Accordion = Extract<Section, { kind: "accordion" }>;

/**
 * An accordion with at most one item open (careers, FAQs). Native
 * <details name="…"> elements: the browser closes the open item when another
 * opens, and clicking the open item's summary closes it, with or without
 * JavaScript. The toggle handler repeats the one-open rule for browsers that
 * predate exclusive <details>.
 */
export function AccordionSection({ section }: { section: Accordion }) {
  const onToggle = (event: React.SyntheticEvent<HTMLDetailsElement>) => {
    const el = event.currentTarget;
    if (!el.open) return;
    el.closest(".accordion")
      ?.querySelectorAll<HTMLDetailsElement>("details[open]")
      .forEach((other) => {
        if (other !== el) other.open = false;
      });
  };
  return (
    <SectionFrame id={section.id} heading={section.heading} intro={section.intro} tint={section.tint}>
      <div className="accordion" data-testid={`${section.id}-accordion`}>
        {section.items.map((item) => (
          <details key={item.id} id={item.id} name={section.group} className="accordion-item" onToggle={onToggle}>
            <summary className="accordion-summary">
              <span className="accordion-heading">
                <span className="accordion-title">{item.title}</span>
                {item.meta ? <span className="accordion-meta">{item.meta}</span> : null}
              </span>
              <ChevronDownIcon size={22} className="accordion-chevron" />
            </summary>
            <AccordionPanel item={item} />
          </details>
        ))}
      </div>
    </SectionFrame>
  );
}

function AccordionPanel({ item }: { item: AccordionItem }) {
  return (
    <div className="accordion-panel">
      {item.paragraphs.map((p) => (
        <p key={p}>
          <RichText text={p} />
        </p>
      ))}
      {item.facts?.length ? (
        <dl className="accordion-facts">
          {item.facts.map((f) => (
            <div key={f.label}>
              <dt>{f.label}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {item.lists?.map((list) => (
        <div key={list.heading} className="accordion-list">
          <h3>{list.heading}</h3>
          <ul>
            {list.items.map((li) => (
              <li key={li}>{li}</li>
            ))}
          </ul>
        </div>
      ))}
      {item.action ? (
        <div className="button-row">
          <ActionLink link={item.action} />
        </div>
      ) : null}
    </div>
  );
}
