import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { promoForm } from "~/forms/promo/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/discount-signup-2025";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const PromoForm = lazyForm(() => import("~/forms/promo/Form").then((m) => m.PromoForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    // No year in the copy (issue 38 item 7): the address keeps SPEC's /discount-signup-2025, the page outlives it.
    title: "Discount Sign-Up",
    description:
      "Sign up for our seasonal discount on a new garage door, opener, windows, patio door, gutters or vinyl siding.",
    path: "/discount-signup-2025",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

export function loader() {
  return { form: formBootstrap() };
}

export const action = (args: Route.ActionArgs) => formAction(promoForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function DiscountSignup({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="home.svg"
        title="Discount Sign-Up"
        subtitle="Planning a new door, windows, gutters or siding? Register for our seasonal savings."
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Discount Sign-Up" }]}
      />
      <section className="section">
        <div className="shell-container form-page form-page--aside">
          <div className="form-intro">
            <h2>Claim your discount</h2>
            <p>
              Leave your details and the product you are interested in. A member of our team will contact you with your
              discount and help you plan the project, from measurements to installation.
            </p>
          </div>
          <div className="form-card">
            <PromoForm bootstrap={loaderData.form} />
          </div>
        </div>
      </section>
    </>
  );
}
