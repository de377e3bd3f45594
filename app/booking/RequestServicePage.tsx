import { Chooser, FormCardHeader } from "~/forms/ui/Chooser";
import { lazyForm } from "~/forms/ui/lazy-form";
import { company } from "~/lib/company";
import { Banner } from "~/shell/Banner";
import type { RequestServicePageData } from "./request-service-page.server";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CommercialServiceForm = lazyForm(() => import("~/forms/service/Form").then((m) => m.CommercialServiceForm));
const ResidentialServiceForm = lazyForm(() => import("./form/Form").then((m) => m.ResidentialServiceForm));

/**
 * The Request Service page (/request-service): the commercial request (?type=commercial), the
 * residential booking (?type=residential, with its calendar), or else the chooser between them.
 */
export function RequestServicePage({ loaderData }: { loaderData: RequestServicePageData }) {
  const { type, form, availability, today } = loaderData;
  return (
    <>
      <Banner
        image="service.svg"
        title="Request Service"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Request Service" }]}
      />
      <section className="section">
        <div className="shell-container">
          {type === "commercial" ? (
            <div className="form-card">
              <FormCardHeader
                title="Commercial Service Request"
                changeTo="/request-service"
                changeLabel="Change: choose residential or commercial again"
              />
              <p className="form-hint">
                For an emergency at your business, call our 24/7 line at{" "}
                <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>.
              </p>
              <CommercialServiceForm bootstrap={form} today={today} />
            </div>
          ) : availability ? (
            <div className="form-card">
              <FormCardHeader
                title="Residential Service"
                changeTo="/request-service"
                changeLabel="Change: choose residential or commercial again"
              />
              <ResidentialServiceForm bootstrap={form} availability={availability} />
            </div>
          ) : (
            <Chooser
              question="Do you need Residential or Commercial service?"
              cards={[
                {
                  type: "residential",
                  title: "Residential",
                  text: "Repairs and tune-ups for your home's garage door, opener, springs and cables.",
                  cta: "Book home service",
                },
                {
                  type: "commercial",
                  title: "Commercial",
                  text: "Service for overhead and rolling steel doors, dock equipment, operators and hollow metal doors at your business.",
                  cta: "Schedule business service",
                },
              ]}
            />
          )}
        </div>
      </section>
    </>
  );
}
