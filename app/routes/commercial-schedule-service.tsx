import { company } from "~/lib/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import { todayInDetroit } from "~/lib/company-time";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/commercial-schedule-service";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const CommercialServiceForm = lazyForm(() => import("~/forms/service/Form").then((m) => m.CommercialServiceForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Schedule Commercial Service",
    description:
      "24-hour emergency repair and preventive maintenance for commercial doors, loading docks and operators across Michigan. Schedule a service visit online.",
    path: "/commercial-schedule-service",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

export function loader() {
  return { form: formBootstrap(), today: todayInDetroit() };
}

export const action = (args: Route.ActionArgs) => formAction(commercialServiceForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function CommercialScheduleService({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="commercial.svg"
        title="Schedule Commercial Service"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Schedule Commercial Service" }]}
      />
      <section className="section">
        <div className="shell-container form-page form-page--aside">
          <div className="form-intro">
            <h2>Keep your business moving</h2>
            <p>
              A stuck dock door or a damaged overhead door costs you deliveries and security. Our commercial technicians
              service every major brand of door and operator, on your schedule.
            </p>
            <ul className="service-points">
              <li>
                <strong>24-hour emergency repair</strong>
                Doors that will not open or close, broken springs and cables, impact damage: call{" "}
                <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a> any time, day or night.
              </li>
              <li>
                <strong>Preventive maintenance</strong>
                Scheduled inspections, lubrication and adjustments that catch worn parts before they fail and keep your
                warranty and safety checks current.
              </li>
              <li>
                <strong>Repairs and upgrades</strong>
                Sectional and rolling steel doors, dock levelers and seals, hollow metal doors and commercial operators.
              </li>
            </ul>
          </div>
          <div className="form-card">
            <div className="form-card-header">
              <h2>Schedule a service visit</h2>
            </div>
            <CommercialServiceForm bootstrap={loaderData.form} today={loaderData.today} />
          </div>
        </div>
      </section>
    </>
  );
}
