import { leadFormClientAction, leadFormShouldRevalidate } from "~/forms/client-action";
import formsCss from "~/forms/forms.css?url";
import { formAction, paidFormBootstrap } from "~/forms/actions.server";
import { invoiceForm } from "~/forms/invoice/handle.server";
import { formPageHeaders } from "~/http/cache-control";
import { lazyForm } from "~/forms/ui/lazy-form";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/pay-invoice";

// The form's code loads when it renders, after the page's own modules (app/forms/ui/lazy-form.tsx).
const InvoiceForm = lazyForm(() => import("~/forms/invoice/Form").then((m) => m.InvoiceForm));

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Pay Invoice",
    description: "Pay your Dover Doors & Windows invoice online by card, securely.",
    path: "/pay-invoice",
  });

export const headers: Route.HeadersFunction = (args) => formPageHeaders(args);

export async function loader({ request }: Route.LoaderArgs) {
  return { form: await paidFormBootstrap(request) };
}

// Success answers 303 to /pay-invoice/receipt (with JavaScript the fetcher follows it).
export const action = (args: Route.ActionArgs) => formAction(invoiceForm, args);
export const clientAction = leadFormClientAction;
export const shouldRevalidate = leadFormShouldRevalidate;

export default function PayInvoice({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="home.svg"
        title="Pay Invoice"
        subtitle="Pay your invoice by card. We never store your card number."
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Pay Invoice" }]}
      />
      <section className="section">
        <div className="shell-container form-page form-page--aside">
          <div className="form-intro">
            <h2>Pay your invoice</h2>
            <p>
              Enter the invoice number and the amount you are paying, with the billing address of your card. You will
              see a receipt as soon as the payment is approved, and we e-mail you a copy.
            </p>
          </div>
          <div className="form-card">
            <InvoiceForm bootstrap={loaderData.form} />
          </div>
        </div>
      </section>
    </>
  );
}
