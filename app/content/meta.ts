import type { MetaDescriptor } from "react-router";
import { pageHead } from "~/shell/page-head";
import type { ContentPageData } from "./page-types";
import { businessJsonLdMeta } from "./structured-data";

type Args = Parameters<typeof pageHead>[0] & { loaderData?: unknown; data?: unknown };

/** Page head of a content page: its own title, description and canonical; JSON-LD where the page asks. */
export function contentMeta(args: Args): MetaDescriptor[] {
  const data = (args.loaderData ?? args.data) as ContentPageData | undefined;
  if (!data?.found) {
    // Same head as the site's not-found page (DECISIONS 1).
    return pageHead(args, {
      title: "Page Not Found",
      description: "The page you asked for does not exist. Here is our home page instead.",
      path: "/",
      extra: [{ name: "robots", content: "noindex" }],
    });
  }
  const { page } = data;
  return pageHead(args, {
    title: page.title,
    description: page.description,
    path: page.path,
    extra: page.jsonLd === "business" ? [businessJsonLdMeta(args.matches)] : [],
  });
}
