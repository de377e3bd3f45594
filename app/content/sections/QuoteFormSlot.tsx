import { lazyForm } from "~/forms/ui/lazy-form";
import type { FormBootstrapData } from "~/forms/ui/LeadForm";
import { company } from "~/lib/company";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const SimpleQuoteForm = lazyForm(() => import("~/forms/quote/Form").then((m) => m.SimpleQuoteForm));

/**
 * The simple quote form (DECISIONS 9) on the residential and commercial
 * product pages. It posts to its host page (routes/product-page.tsx's action),
 * so without JavaScript the same page re-renders with the result, every value
 * kept. Every page that shows it has a `kind: "quote-form"` section in
 * app/content/pages, and `quoteForm: true` in app/content/route-paths.ts.
 */
export function QuoteFormSlot({
  type,
  bootstrap,
}: {
  type: "residential" | "commercial";
  bootstrap?: FormBootstrapData;
}) {
  const heading = type === "residential" ? "Get Your Free Quote" : "Get a Commercial Quote";
  return (
    <section
      className="section quote-slot"
      data-slot="quote-form"
      data-quote-type={type}
      aria-labelledby="quote-slot-title"
    >
      <div className="shell-container quote-slot-inner">
        <h2 id="quote-slot-title">{heading}</h2>
        <p>
          Tell us about your project and a representative will reach out within {company.responseTime}. Prefer to talk?
          Call <a href={company.phone.href}>{company.phone.display}</a>.
        </p>
        {bootstrap ? (
          <SimpleQuoteForm quoteType={type === "residential" ? "Residential" : "Commercial"} bootstrap={bootstrap} />
        ) : null}
      </div>
    </section>
  );
}
