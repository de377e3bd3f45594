import { company } from "~/lib/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { contactForm } from "~/forms/contact/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/contact";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const ContactForm = lazyForm(() => import("~/forms/contact/Form").then((m) => m.ContactForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Contact Us",
    description: `Questions about garage doors, windows, entry doors, gutters or siding? Send ${company.name} a message or call ${company.phone.display}.`,
    path: "/contact",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

export function loader() {
  return { form: formBootstrap() };
}

export const action = (args: Route.ActionArgs) => formAction(contactForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function Contact({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="contact.svg"
        title="Contact Us"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Contact Us" }]}
      />
      <section className="section">
        <div className="shell-container form-page form-page--aside">
          <div className="form-intro">
            <h2>We're here to help</h2>
            <p>
              Tell us about your door, window, gutter or siding project, or the repair you need. A member of our team
              will get back to you, usually within one business day.
            </p>
            <ul className="form-contact-list">
              <li>
                <strong>Call us</strong>
                <a href={company.phone.href}>{company.phone.display}</a>
              </li>
              <li>
                <strong>E-mail</strong>
                <a href={`mailto:${company.email}`}>{company.email}</a>
              </li>
              <li>
                <strong>Showrooms</strong>
                {company.showroomHours}
              </li>
              <li>
                <strong>24/7 emergency service</strong>
                <a href={company.emergencyPhone.href}>{company.emergencyPhone.display}</a>
              </li>
            </ul>
          </div>
          <div className="form-card">
            <ContactForm bootstrap={loaderData.form} />
          </div>
        </div>
      </section>
    </>
  );
}
