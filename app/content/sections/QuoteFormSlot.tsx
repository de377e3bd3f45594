import { Link } from "react-router";
import { company } from "../company";

/**
 * SLOT: the simple quote form (DECISIONS 9) belongs here on the residential
 * and commercial product pages. Until the forms capability provides it, this
 * renders a call to action that leads to the full quote form of the right
 * type. The lead replaces the body of this component with the form, e.g.
 * `<SimpleQuoteForm type={type} source={pathname} />`; every page that shows
 * it is listed by `kind: "quote-form"` in app/content/pages.
 */
export function QuoteFormSlot({ type }: { type: "residential" | "commercial" }) {
  const heading = type === "residential" ? "Get Your Free Quote" : "Get a Commercial Quote";
  return (
    <section
      className="section quote-slot"
      data-slot="quote-form"
      data-quote-type={type}
      aria-labelledby="quote-slot-title"
    >
      <div className="shell-container quote-slot-inner" data-reveal="">
        <h2 id="quote-slot-title">{heading}</h2>
        <p>
          Tell us about your project and a representative will reach out within {company.responseTime}. Prefer to talk?
          Call <a href={company.phone.href}>{company.phone.display}</a>.
        </p>
        <Link to={`/request-quote?type=${type}`} className="btn btn-primary btn-lg">
          Request a Quote
        </Link>
      </div>
    </section>
  );
}
