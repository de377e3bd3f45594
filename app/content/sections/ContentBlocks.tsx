import { ClockIcon, HomeIcon, ShieldIcon, ToolIcon } from "~/shell/icons";
import type { ContentBlock } from "../types";

const icons = { family: HomeIcon, crew: ToolIcon, clock: ClockIcon, shield: ShieldIcon } as const;

/** A row of short content blocks (icon, heading, text). */
export function ContentBlocks({ blocks, label }: { blocks: ContentBlock[]; label: string }) {
  return (
    <section className="section section--tint" aria-label={label}>
      <div className="shell-container blocks-grid">
        {blocks.map((b) => {
          const Icon = icons[b.icon ?? "family"];
          return (
            <article key={b.title} className="content-block" data-reveal="">
              <span className="content-block-icon">
                <Icon size={26} />
              </span>
              <h2 className="content-block-title">{b.title}</h2>
              <p>{b.text}</p>
            </article>
          );
        })}
      </div>
    </section>
  );
}
