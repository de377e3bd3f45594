import { Link } from "react-router";
import type { LinkRef } from "../page-types";

/** A heading's id from its text. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const isInternal = (to: string) => to.startsWith("/") && !to.startsWith("//");

/**
 * Plain text with [label](href) links: internal paths become router links,
 * mailto:, tel: and web addresses plain anchors.
 */
export function RichText({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  const pattern = /\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const [, label, href] = m as unknown as [string, string, string];
    parts.push(
      isInternal(href) ? (
        <Link key={m.index} to={href} prefetch="intent">
          {label}
        </Link>
      ) : (
        <a key={m.index} href={href}>
          {label}
        </a>
      ),
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/** A button-styled link: router link, download, external (new tab) or mailto/tel. */
export function ActionLink({ link }: { link: LinkRef }) {
  const className = `btn btn-${link.variant ?? "primary"}`;
  if (link.download) {
    return (
      <a href={link.to} download={link.download} className={className} type="application/pdf">
        {link.label}
      </a>
    );
  }
  if (link.external) {
    return (
      <a href={link.to} className={className} target="_blank" rel="noopener noreferrer">
        {link.label}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  if (isInternal(link.to)) {
    return (
      <Link to={link.to} className={className} prefetch="intent">
        {link.label}
      </Link>
    );
  }
  return (
    <a href={link.to} className={className}>
      {link.label}
    </a>
  );
}

export function ActionLinks({ links }: { links?: LinkRef[] }) {
  if (!links?.length) return null;
  return (
    <div className="button-row">
      {links.map((l) => (
        <ActionLink key={`${l.label}-${l.to}`} link={l} />
      ))}
    </div>
  );
}

/** A page section: background band, container and a centred header with an h2. */
export function SectionFrame({
  id,
  heading,
  intro,
  tint,
  className,
  children,
}: {
  id?: string;
  heading: string;
  intro?: React.ReactNode;
  tint?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  const anchor = id ?? slugify(heading);
  return (
    <section
      id={id}
      className={`section content-section${tint ? " section--tint" : ""}${className ? ` ${className}` : ""}`}
      aria-labelledby={`${anchor}-title`}
    >
      <div className="shell-container">
        <header className="section-header" data-reveal="">
          <h2 id={`${anchor}-title`} className="section-title">
            {heading}
          </h2>
          {intro ? <p className="section-subtitle">{intro}</p> : null}
        </header>
        {children}
      </div>
    </section>
  );
}
