import { data } from "react-router";
import { cancelBooking } from "~/booking/cancel.server";
import { bookingReceipt, findBookingByToken } from "~/booking/manage.server";
import { ManageBooking } from "~/booking/ManageBooking";
import { changePolicy } from "~/booking/policy";
import formsCss from "~/forms/forms.css?url";
import { BodyError } from "~/http/body.server";
import { cachePolicy } from "~/http/cache-control";
import { readBody } from "~/forms/uploads.server";
import { getDb } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { Banner } from "~/shell/Banner";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/booking";

/**
 * A booking's manage page, /booking/{token} (DECISIONS 32): the link in the receipt and every
 * mail about the booking. The token is the only key; the page is one visitor's, stored nowhere,
 * sent with no Referer, and not indexed. An unknown token is the site's 404.
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: formsCss }];

export const meta: Route.MetaFunction = (args) => [
  ...pageHead(args, {
    title: "Your service visit",
    description: "Your service visit booking: reference, time, address, payment and changes.",
    path: "/request-service",
  }),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export const headers: Route.HeadersFunction = () => ({ ...cachePolicy.private, "Referrer-Policy": "no-referrer" });

/** "Cancel booking" (after its confirmation): the one change a visitor makes here yet. */
export async function action({ request, params }: Route.ActionArgs) {
  // The body bounded by bytes read, as every form's (a hostile post cannot make it hold more).
  const body = await readBody(request).catch((error: unknown) => (error instanceof BodyError ? error : null));
  if (body instanceof BodyError) return data({ ok: false, message: body.message }, { status: body.status });
  if (body?.fields.get("intent") !== "cancel") return data({ ok: false, message: "Nothing to do." }, { status: 400 });
  const outcome = await cancelBooking(await getDb(), params.token);
  if (outcome.status === 404) throw data("Booking not found", { status: 404 });
  return data({ ok: outcome.ok, message: outcome.message }, { status: outcome.status === 202 ? 200 : outcome.status });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const booking = await findBookingByToken(await getDb(), params.token);
  if (!booking) throw data("Booking not found", { status: 404, headers: { "Referrer-Policy": "no-referrer" } });
  const search = new URL(request.url).searchParams;
  const justBooked = search.has("booked");
  return {
    booking,
    policy: changePolicy(env().BOOKING_CHANGE_CUTOFF_HOURS),
    // Right after paying (the booking form's redirect): SPEC's success text and the receipt line lead.
    receipt: justBooked ? bookingReceipt(booking) : null,
    // The no-JS confirmation step: /booking/{token}?cancel shows "Yes, cancel" before anything happens.
    confirmCancel: search.has("cancel") && booking.canCancel,
  };
}

export default function BookingPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <Banner
        image="service.svg"
        title="Your Service Visit"
        subtitle={`Booking reference ${loaderData.booking.reference}`}
        breadcrumbs={[
          { label: "Home", to: "/" },
          { label: "Request Service", to: "/request-service" },
          { label: "Your booking" },
        ]}
      />
      <section className="section">
        <div className="shell-container form-page">
          <ManageBooking
            booking={loaderData.booking}
            policy={loaderData.policy}
            receipt={actionData ? null : loaderData.receipt}
            confirmCancel={!actionData && loaderData.confirmCancel}
            answer={actionData ?? null}
          />
        </div>
      </section>
    </>
  );
}
