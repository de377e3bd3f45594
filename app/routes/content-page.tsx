import contentCss from "~/content/content.css?url";
import { contentMeta } from "~/content/meta";
import { contentPageLoader } from "~/content/page-data.server";
import { ContentPageView } from "~/content/sections/ContentPageView";
import type { SharedNotFoundHandle } from "~/http/page-cache.server";
import type { ContentPageData } from "~/content/page-types";
import type { ScriptsHandle } from "~/shell/page-scripts";
import type { Route } from "./+types/content-page";

/**
 * Every marketing page of the route table without a form (app/content/pages),
 * registered once per path in routes.ts, plus the ":slug" route that serves
 * the referral pages (DECISIONS 7) and answers other unknown one-segment paths
 * like the not-found route does (home content, status 404). The product pages
 * with the simple quote form are routes/product-page.tsx.
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: contentCss }];

export const loader = (args: Route.LoaderArgs) => contentPageLoader(args);

/**
 * Its 404 (an unknown one-segment path) is the same document for every path (page-cache.server.ts).
 * A page runs no JavaScript unless it carries a form or the interactive map (app/shell/page-scripts.ts).
 */
export const handle: SharedNotFoundHandle & ScriptsHandle = {
  notFoundDocumentIsShared: true,
  scripts: (data) => {
    const page = data as ContentPageData | undefined;
    return Boolean(page?.found && (page.leadForm || page.mapsKey));
  },
};

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = (args) => contentMeta(args);

export default function ContentPageRoute({ loaderData }: Route.ComponentProps) {
  return <ContentPageView data={loaderData} />;
}
