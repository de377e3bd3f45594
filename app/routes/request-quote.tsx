import { company } from "~/lib/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { fullQuoteForm } from "~/forms/quote/handle.server";
import type { QuoteType } from "~/forms/options";
import { lazyForm } from "~/forms/ui/lazy-form";
import { Chooser, FormCardHeader } from "~/forms/ui/Chooser";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { ScriptsHandle } from "~/shell/page-scripts";
import type { Route } from "./+types/request-quote";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const QuoteForm = lazyForm(() => import("~/forms/quote/Form").then((m) => m.QuoteForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Request a Quote",
    description: `Request a free quote for garage doors, entry and patio doors, windows, gutters, siding or commercial doors. A representative reaches out within ${company.responseTime}.`,
    path: "/request-quote",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

function quoteType(url: URL): QuoteType | null {
  const type = url.searchParams.get("type");
  return type === "residential" ? "Residential" : type === "commercial" ? "Commercial" : null;
}

export function loader({ request }: Route.LoaderArgs) {
  return { quoteType: quoteType(new URL(request.url)), form: formBootstrap() };
}

/** The chooser (no type yet) is links only: no JavaScript (app/shell/page-scripts.ts). */
export const handle: ScriptsHandle = {
  scripts: (data) => Boolean((data as { quoteType?: unknown } | undefined)?.quoteType),
};

export const action = (args: Route.ActionArgs) => formAction(fullQuoteForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function RequestQuote({ loaderData }: Route.ComponentProps) {
  const { quoteType: type, form } = loaderData;
  return (
    <>
      <Banner
        image="quote.svg"
        title="Request a Quote"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Request a Quote" }]}
      />
      <section className="section">
        <div className="shell-container">
          {type ? (
            <div className="form-card">
              <FormCardHeader
                title={`${type} Quote Request`}
                changeTo="/request-quote"
                changeLabel="Change: choose residential or commercial again"
              />
              <p className="form-hint">
                Tell us about your project and a representative will reach out within {company.responseTime}.
              </p>
              <QuoteForm key={type} bootstrap={form} quoteType={type} />
            </div>
          ) : (
            <Chooser
              question="Is this quote for Residential or Commercial?"
              cards={[
                {
                  type: "residential",
                  title: "Residential",
                  text: "Garage doors and openers, entry and patio doors, windows, seamless gutters and vinyl siding for your home.",
                  cta: "Get a home quote",
                },
                {
                  type: "commercial",
                  title: "Commercial",
                  text: "Sectional and rolling steel doors, commercial openers, loading docks, hollow metal doors and bathroom partitions.",
                  cta: "Get a business quote",
                },
              ]}
            />
          )}
        </div>
      </section>
    </>
  );
}
