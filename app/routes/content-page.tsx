import { data } from "react-router";
import contentCss from "~/content/content.css?url";
import { contentMeta } from "~/content/meta";
import { contentPageHeaders, loadContentPage } from "~/content/page-data.server";
import { ContentPageView } from "~/content/sections/ContentPageView";
import type { Route } from "./+types/content-page";

/**
 * Every marketing page of the route table (app/content/pages), registered once
 * per path in routes.ts, plus the ":slug" route that serves the referral
 * pages (DECISIONS 7) and answers other unknown one-segment paths like the
 * not-found route does (home content, status 404).
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: contentCss }];

export async function loader({ url }: Route.LoaderArgs) {
  // `url` is the page's URL, also for client navigations (`request.url` then ends in ".data").
  const result = await loadContentPage(url.pathname);
  return data(result, { status: result.found ? 200 : 404, headers: contentPageHeaders(result) });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = (args) => contentMeta(args);

export default function ContentPageRoute({ loaderData }: Route.ComponentProps) {
  return <ContentPageView data={loaderData} />;
}
