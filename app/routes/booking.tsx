import { answerBookingPost, loadManagePage } from "~/booking/manage-page.server";
import { BookingPage } from "~/booking/BookingPage";
import formsCss from "~/forms/forms.css?url";
import { cachePolicy } from "~/http/cache-control";
import { clientIpOf } from "~/http/client-ip.server";
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

export const headers: Route.HeadersFunction = ({ actionHeaders }) => ({
  // An answer to a post (a refused move, "Show price") is kept by the browser, so Back to it never asks to post again.
  ...(actionHeaders.has("Cache-Control") ? cachePolicy.answer : cachePolicy.private),
  "Referrer-Policy": "no-referrer",
});

/** "Cancel booking" (after its confirmation), and moving the visit ("Show price", "Move my visit": posted to ?move). */
export const action = ({ request, params, context }: Route.ActionArgs) =>
  answerBookingPost(request, params.token, clientIpOf(context));

export const loader = ({ request, params }: Route.LoaderArgs) => loadManagePage(request, params.token);

export default function Booking({ loaderData, actionData }: Route.ComponentProps) {
  return <BookingPage loaderData={loaderData} actionData={actionData} />;
}
