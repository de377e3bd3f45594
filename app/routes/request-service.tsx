import type { ShouldRevalidateFunction } from "react-router";
import { company } from "~/lib/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { isFormActionData } from "~/forms/result";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap, paidFormBootstrap } from "~/forms/actions.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { residentialAvailability } from "~/booking/availability.server";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import { todayInDetroit } from "~/lib/company-time";
import { Chooser, FormCardHeader } from "~/forms/ui/Chooser";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/request-service";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CommercialServiceForm = lazyForm(() => import("~/forms/service/Form").then((m) => m.CommercialServiceForm));
const ResidentialServiceForm = lazyForm(() => import("~/booking/form/Form").then((m) => m.ResidentialServiceForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Request Service",
    description:
      "Schedule a service visit for your home or business: garage door repairs, openers, commercial doors and loading docks.",
    path: "/request-service",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

function serviceType(url: URL) {
  const type = url.searchParams.get("type");
  return type === "residential" || type === "commercial" ? type : null;
}

// `today`: the commercial form's first bookable day, from the server (app/forms/service/Form.tsx says why).
export async function loader({ request }: Route.LoaderArgs) {
  const type = serviceType(new URL(request.url));
  // The residential calendar: the places taken from today on (fresh on every render, a refused post's included).
  if (type === "residential")
    return {
      type,
      form: await paidFormBootstrap(request),
      availability: await residentialAvailability(),
      today: todayInDetroit(),
    };
  return { type, form: formBootstrap(), availability: null, today: todayInDetroit() };
}

// ?type=residential books and pays; every other post is the commercial request (as before the residential form existed).
export const action = (args: Route.ActionArgs) =>
  serviceType(new URL(args.request.url)) === "residential"
    ? formAction(residentialServiceForm, args)
    : formAction(commercialServiceForm, args);
export const clientAction = leadFormClientAction;
// The residential calendar is read again after a refused booking (a slot may have filled meanwhile).
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  isFormActionData(args.actionResult) &&
  args.actionResult.status === "error" &&
  serviceType(args.currentUrl) === "residential"
    ? true
    : leadFormShouldRevalidate(args);

export default function RequestService({ loaderData }: Route.ComponentProps) {
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
