import { data } from "react-router";
import formsCss from "~/forms/forms.css?url";
import { RESIDENTIAL_PENDING, RESIDENTIAL_SUCCESS } from "~/booking/form/identity";
import { findServiceReceipt, serviceReceiptLine, verifiedServicePaymentId } from "~/booking/form/receipt.server";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { ReceiptCard } from "~/forms/ui/ReceiptCard";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/request-service.receipt";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

/** The outcome of a residential booking, reached by the redirect after its POST (a refresh reads, never books or pays). */
export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Service visit booked",
    description: "Your service visit booking and payment receipt.",
    path: "/request-service/receipt",
  }),
  { name: "robots", content: "noindex" },
];

// One visitor's receipt: never in a shared cache.
export const headers: Route.HeadersFunction = () => cachePolicy.private;

export async function loader({ request, params }: Route.LoaderArgs) {
  const paymentId = verifiedServicePaymentId(params.payment, new URL(request.url).searchParams.get("sig"));
  const receipt = paymentId === null ? null : await findServiceReceipt(await getDb(), paymentId);
  if (!receipt) throw data("Receipt not found", { status: 404 });
  return { pending: receipt.pending, line: serviceReceiptLine(receipt), reference: receipt.reference };
}

export default function ServiceReceipt({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="service.svg"
        title="Request Service"
        subtitle="Your service visit"
        breadcrumbs={[
          { label: "Home", to: "/" },
          { label: "Request Service", to: "/request-service" },
          { label: "Receipt" },
        ]}
      />
      <section className="section">
        <div className="shell-container form-page">
          <ReceiptCard
            pending={loaderData.pending}
            pendingText={RESIDENTIAL_PENDING}
            successText={RESIDENTIAL_SUCCESS}
            line={loaderData.line}
          >
            {loaderData.reference ? (
              <p className="booking-reference">
                Booking reference: <strong>{loaderData.reference}</strong>
              </p>
            ) : null}
            <p className="form-hint">
              We have e-mailed you this receipt with a calendar invitation for the visit, and a link to see, change or
              cancel it.
            </p>
          </ReceiptCard>
        </div>
      </section>
    </>
  );
}
