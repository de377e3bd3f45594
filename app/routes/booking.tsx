import { data } from "react-router";
import { bookingReceipt, findBookingByToken } from "~/booking/manage.server";
import { ManageBooking } from "~/booking/ManageBooking";
import { changePolicy } from "~/booking/policy";
import formsCss from "~/forms/forms.css?url";
import { cachePolicy } from "~/http/cache-control";
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

export async function loader({ request, params }: Route.LoaderArgs) {
  const booking = await findBookingByToken(await getDb(), params.token);
  if (!booking) throw data("Booking not found", { status: 404, headers: { "Referrer-Policy": "no-referrer" } });
  const justBooked = new URL(request.url).searchParams.has("booked");
  return {
    booking,
    policy: changePolicy(env().BOOKING_CHANGE_CUTOFF_HOURS),
    // Right after paying (the booking form's redirect): SPEC's success text and the receipt line lead.
    receipt: justBooked ? bookingReceipt(booking) : null,
  };
}

export default function BookingPage({ loaderData }: Route.ComponentProps) {
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
          <ManageBooking booking={loaderData.booking} policy={loaderData.policy} receipt={loaderData.receipt} />
        </div>
      </section>
    </>
  );
}
