import productPageCss from "~/content/product-page.css?url";
import { contentMeta } from "~/content/meta";
import { contentPageLoader } from "~/content/page-data.server";
import { ContentPageView } from "~/content/sections/ContentPageView";
import { QuoteFormSlot } from "~/content/sections/QuoteFormSlot";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { simpleQuoteAction } from "~/forms/quote/embed.server";
import type { Route } from "./+types/product-page";
import { formPageHeaders } from "~/http/cache-control";

/**
 * The product pages that carry the simple quote form (DECISIONS 9; the list is
 * quoteFormPaths in app/content/route-paths.ts). The form posts to its own
 * page, so without JavaScript the same page re-renders with the result and
 * every value kept. Never shared-cached: the form's no-JS challenge is single use.
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: productPageCss }];

export const loader = (args: Route.LoaderArgs) => contentPageLoader(args);

export const action = (args: Route.ActionArgs) => simpleQuoteAction(args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args, args.loaderHeaders);

export const meta: Route.MetaFunction = (args) => contentMeta(args);

export default function ProductPageRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ContentPageView
      data={loaderData}
      renderQuoteForm={(type, data) => <QuoteFormSlot type={type} bootstrap={data.leadForm} />}
    />
  );
}
