import { data } from "react-router";
import contentCss from "~/content/content.css?url";
import { contentMeta } from "~/content/meta";
import { contentPageHeaders, hostsQuoteForm, loadContentPage } from "~/content/page-data.server";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { simpleQuoteAction } from "~/forms/quote/embed.server";
import { ContentPageView } from "~/content/sections/ContentPageView";
import type { Route } from "./+types/content-page";

/**
 * Every marketing page of the route table (app/content/pages), registered once
 * per path in routes.ts, plus the ":slug" route that serves the referral
 * pages (DECISIONS 7) and answers other unknown one-segment paths like the
 * not-found route does (home content, status 404).
 */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: contentCss },
  { rel: "stylesheet", href: formsCss },
];

export async function loader({ url }: Route.LoaderArgs) {
  // `url` is the page's URL, also for client navigations (`request.url` then ends in ".data").
  const result = await loadContentPage(url.pathname);
  return data(result, { status: result.found ? 200 : 404, headers: contentPageHeaders(result) });
}

/** The simple quote form on product pages posts here (DECISIONS 9); other pages take no POST. */
export async function action(args: Route.ActionArgs) {
  if (!hostsQuoteForm(args.url.pathname)) throw data(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  return simpleQuoteAction(args);
}

export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = (args) => contentMeta(args);

export default function ContentPageRoute({ loaderData }: Route.ComponentProps) {
  return <ContentPageView data={loaderData} />;
}
