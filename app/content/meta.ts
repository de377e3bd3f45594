import type { MetaDescriptor } from "react-router";
import { pageHead } from "~/shell/page-head";
import type { ContentPageData } from "./page-types";
import { notFoundMeta } from "./not-found-head";
import { businessJsonLdMeta } from "./structured-data";

type Args = Parameters<typeof pageHead>[0] & { loaderData?: unknown; data?: unknown };

/** Page head of a content page: its own title, description and canonical; JSON-LD where the page asks. */
export function contentMeta(args: Args): MetaDescriptor[] {
  const data = (args.loaderData ?? args.data) as ContentPageData | undefined;
  // Same head as the site's not-found page (DECISIONS 1).
  if (!data?.found) return notFoundMeta(args);
  const { page } = data;
  return pageHead(args, {
    title: page.title,
    description: page.description,
    path: page.path,
    extra: page.jsonLd === "business" ? [businessJsonLdMeta(args.matches)] : [],
  });
}
