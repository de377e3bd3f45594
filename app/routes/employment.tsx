import { company } from "~/lib/company";
import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import { employmentForm } from "~/forms/employment/handle.server";
import { lazyForm } from "~/forms/ui/lazy-form";
import formsCss from "~/forms/forms.css?url";
import { formAction, formBootstrap } from "~/forms/actions.server";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/employment";
import { formPageHeaders } from "~/http/cache-control";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const EmploymentForm = lazyForm(() => import("~/forms/employment/Form").then((m) => m.EmploymentForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Employment Application",
    description: `Apply to join ${company.name}: technicians, sales, office and installation roles across Michigan.`,
    path: "/employment",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

export function loader() {
  return { form: formBootstrap() };
}

export const action = (args: Route.ActionArgs) => formAction(employmentForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function Employment({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="careers.svg"
        title="Employment Application"
        subtitle="We have been hiring good people since 1936. Tell us about yourself and the role you are looking for."
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Employment Application" }]}
      />
      <section className="section">
        <div className="shell-container">
          <div className="form-card">
            <p className="form-hint">
              Fields marked <span className="form-required">*</span> are required. Prefer e-mail? Send your resume to{" "}
              <a href={`mailto:${company.careersEmail}`}>{company.careersEmail}</a> with the job title as the subject.
            </p>
            <EmploymentForm bootstrap={loaderData.form} />
          </div>
        </div>
      </section>
    </>
  );
}
