import { company } from "~/content/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import { Chooser, FormCardHeader } from "~/forms/ui/Chooser";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/request-service";
import { formPageHeaders } from "~/forms/route-headers";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CommercialServiceForm = lazyForm(() => import("~/forms/service/Form").then((m) => m.CommercialServiceForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Request Service",
    description: "Schedule a service visit for your home or business: garage door repairs, openers, commercial doors and loading docks.",
    path: "/request-service",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

function serviceType(url: URL) {
  const type = url.searchParams.get("type");
  return type === "residential" || type === "commercial" ? type : null;
}

export function loader({ request }: Route.LoaderArgs) {
  return { type: serviceType(new URL(request.url)), form: formBootstrap() };
}

// The residential form (card payment) arrives with the payments issue, which
// dispatches on ?type= here; until then only the commercial form posts.
export const action = (args: Route.ActionArgs) => formAction(commercialServiceForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function RequestService({ loaderData }: Route.ComponentProps) {
  const { type, form } = loaderData;
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
              <FormCardHeader title="Commercial Service Request" changeTo="/request-service" changeLabel="Change: choose residential or commercial again" />
              <p className="form-hint">
                For an emergency at your business, call our 24/7 line at{" "}
                <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>.
              </p>
              <CommercialServiceForm bootstrap={form} />
            </div>
          ) : type === "residential" ? (
            <div className="form-card">
              <FormCardHeader title="Residential Service" changeTo="/request-service" changeLabel="Change: choose residential or commercial again" />
              <div className="form-notice" role="note">
                <p>
                  Online booking with card payment for home service visits is not available yet. Please call us at{" "}
                  <a href={company.phone.href}>{company.phone.display}</a> and we will book your visit by phone.
                </p>
                <p>
                  Garage door emergency after hours? Call <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>, day or
                  night.
                </p>
              </div>
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
