import { Fragment } from "react";
import { data } from "react-router";
import formsCss from "~/forms/forms.css?url";
import { INVOICE_PENDING, INVOICE_SUCCESS } from "~/forms/invoice/identity";
import { findInvoiceReceipt, receiptFacts, receiptLine, verifiedPaymentId } from "~/forms/invoice/receipt.server";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { ReceiptCard } from "~/forms/ui/ReceiptCard";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/pay-invoice.receipt";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

/** The outcome of an invoice payment, reached by the redirect after its POST (a refresh reads, never pays). */
export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Payment receipt",
    description: "Your invoice payment receipt.",
    path: "/pay-invoice/receipt",
  }),
  { name: "robots", content: "noindex" },
];

// One visitor's receipt: never in a shared cache.
export const headers: Route.HeadersFunction = () => cachePolicy.private;

export async function loader({ request, params }: Route.LoaderArgs) {
  const paymentId = verifiedPaymentId(params.payment, new URL(request.url).searchParams.get("sig"));
  const receipt = paymentId === null ? null : await findInvoiceReceipt(await getDb(), paymentId);
  if (!receipt) throw data("Receipt not found", { status: 404 });
  return {
    pending: receipt.status === "pending",
    line: receiptLine(receipt),
    // The reference, the date, the invoice number and the amount: what the visitor keeps (and its mail leads with).
    facts: receiptFacts(receipt),
  };
}

export default function InvoiceReceipt({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="home.svg"
        title="Pay Invoice"
        subtitle="Your payment"
        breadcrumbs={[{ label: "Home", to: "/" }, { label: "Pay Invoice", to: "/pay-invoice" }, { label: "Receipt" }]}
      />
      <section className="section">
        <div className="shell-container form-page">
          <ReceiptCard
            pending={loaderData.pending}
            pendingText={INVOICE_PENDING}
            successText={INVOICE_SUCCESS}
            line={loaderData.line}
          >
            <ReceiptFacts facts={loaderData.facts} />
            <p className="form-hint">We have e-mailed you this receipt. Quote the reference if you call us about it.</p>
          </ReceiptCard>
        </div>
      </section>
    </>
  );
}

function ReceiptFacts({ facts }: { facts: { label: string; value: string }[] }) {
  return (
    <dl className="booking-facts receipt-facts" aria-label="Receipt">
      {facts.map((fact) => (
        <Fragment key={fact.label}>
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
