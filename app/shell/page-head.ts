import type { MetaDescriptor } from "react-router";
import { company } from "~/lib/company";

type RootData = { siteUrl: string } | undefined;

export type PageHeadInput = {
  title: string;
  description: string;
  /** Path for the canonical URL; defaults to the current path (query dropped). */
  path?: string;
  /** Absolute or site-relative image for social previews. */
  image?: string;
  /** Extra descriptors (e.g. JSON-LD via { "script:ld+json": … }). */
  extra?: MetaDescriptor[];
};

type MetaArgs = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown; data?: unknown } | undefined>;
};

/**
 * The one page-head helper (SPEC §2 "Page-head data"): title, description,
 * canonical URL from SITE_URL, Open Graph and Twitter tags. Every route's
 * `meta` calls it.
 */
export function pageHead(args: MetaArgs, input: PageHeadInput): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === "root");
  const siteUrl = ((root?.loaderData ?? root?.data) as RootData)?.siteUrl ?? "";
  const path = input.path ?? args.location.pathname;
  const url = `${siteUrl}${path === "/" ? "/" : path.replace(/\/+$/, "")}`;
  const image = absolute(siteUrl, input.image ?? "/images/og-default.png");
  const title = input.title.includes(company.name) ? input.title : `${input.title} | ${company.name}`;
  return [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: company.name },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image },
    ...(input.extra ?? []),
  ];
}

function absolute(siteUrl: string, src: string) {
  return /^https?:\/\//.test(src) ? src : `${siteUrl}${src}`;
}
