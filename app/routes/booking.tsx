import { data, redirect } from "react-router";
import { cancelBooking } from "~/booking/cancel.server";
import { bookingReceipt, findBookingByToken, lastMoveNote } from "~/booking/manage.server";
import { answerMove, type MoveAnswer } from "~/booking/move-form.server";
import { MOVE_FORM_ID } from "~/booking/move-form";
import { loadAvailability } from "~/booking/availability.server";
import { newSubmissionKey } from "~/forms/submission-keys.server";
import { clientIpOf } from "~/http/client-ip.server";
import { ManageBooking } from "~/booking/ManageBooking";
import { MoveBooking } from "~/booking/MoveBooking";
import { bookingChangesSentence } from "~/booking/online-changes.server";
import { changePolicy } from "~/booking/policy";
import formsCss from "~/forms/forms.css?url";
import { BodyError } from "~/http/body.server";
import { cachePolicy } from "~/http/cache-control";
import { readBody } from "~/forms/uploads.server";
import {
  answerAfterRedirect,
  forgetPostedAnswer,
  isDocumentPost,
  readPostedAnswer,
} from "~/forms/posted-answer.server";
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

export const headers: Route.HeadersFunction = ({ actionHeaders }) => ({
  // An answer to a post (a refused move, "Show price") is kept by the browser, so Back to it never asks to post again.
  ...(actionHeaders.has("Cache-Control") ? cachePolicy.answer : cachePolicy.private),
  "Referrer-Policy": "no-referrer",
});

/** "Cancel booking" (after its confirmation), and moving the visit ("Show price", "Move my visit": posted to ?move). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const db = await getDb();
  if (new URL(request.url).searchParams.has("move")) {
    // The move form: THE form pipeline reads and bounds its body (app/booking/move-form.server.ts).
    const answer = await answerMove(db, request, clientIpOf(context));
    if (!answer) throw data("Booking not found", { status: 404 });
    // An absolute address: a relative one would resolve against the .data request of a JavaScript post.
    if (answer.redirect)
      throw redirect(answer.redirect, { status: 303, headers: { "Set-Cookie": await forgetPostedAnswer() } });
    // Without JavaScript, Post/Redirect/Get: Back after a later move never reaches this answer as kept (issue 38 item 4).
    if (isDocumentPost(request)) {
      const redirected = await answerAfterRedirect(db, request, MOVE_FORM_ID, answer);
      if (redirected) throw redirected;
    }
    return data(answer, { status: answer.ok ? 200 : answer.status, headers: cachePolicy.answer });
  }
  // The body bounded by bytes read, as every form's (a hostile post cannot make it hold more).
  const body = await readBody(request).catch((error: unknown) => (error instanceof BodyError ? error : null));
  if (body instanceof BodyError) return data({ ok: false, message: body.message }, { status: body.status });
  if (body?.fields.get("intent") !== "cancel") return data({ ok: false, message: "Nothing to do." }, { status: 400 });
  const outcome = await cancelBooking(db, params.token);
  if (outcome.status === 404) throw data("Booking not found", { status: 404 });
  const answer = { ok: outcome.ok, message: outcome.message };
  // Post/Redirect/Get (the confirmation is a plain form, with and without JavaScript): a refresh or
  // Back never posts the cancellation again, and Back to the confirmation shows the booking as it is now.
  if (isDocumentPost(request)) {
    const redirected = await answerAfterRedirect(db, request, CANCEL_ANSWER, answer);
    if (redirected) throw redirected;
  }
  return data(answer, { status: outcome.status === 202 ? 200 : outcome.status });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const db = await getDb();
  const booking = await findBookingByToken(db, params.token);
  if (!booking) throw data("Booking not found", { status: 404, headers: { "Referrer-Policy": "no-referrer" } });
  const search = new URL(request.url).searchParams;
  const justBooked = search.has("booked");
  // What this browser's last post here without JavaScript answered (its 303 led here).
  const posted = await readPostedAnswer(db, request);
  const move = search.has("move") && booking.canChange;
  return {
    booking,
    policy: changePolicy(env().BOOKING_CHANGE_CUTOFF_HOURS),
    // Until when this visit can be changed online, or that it no longer can (DECISIONS 37).
    changes: bookingChangesSentence(booking, env().BOOKING_CHANGE_CUTOFF_HOURS),
    // Right after paying (the booking form's redirect): SPEC's success text and the receipt line lead.
    receipt: justBooked ? bookingReceipt(booking) : null,
    // The no-JS confirmation step: /booking/{token}?cancel shows "Yes, cancel" before anything happens.
    confirmCancel: search.has("cancel") && booking.canChange,
    // Moving the visit (?move): the calendar's availability and this render's change key.
    move: move ? { availability: await loadAvailability(db), changeKey: newSubmissionKey() } : null,
    // After a move (?moved): what changed, from the booking's history.
    moved: search.has("moved") ? await lastMoveNote(db, params.token) : null,
    posted,
  };
}

/** The cancellation's answer, as a posted answer is kept (its form). */
const CANCEL_ANSWER = "booking-cancel";

export default function BookingPage({ loaderData, actionData: posted }: Route.ComponentProps) {
  // A post's answer: its own page (a script's post), or the one kept for the page its 303 led to.
  const actionData = posted ?? postedAnswer(loaderData.posted);
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
            changes={loaderData.changes}
            receipt={actionData ? null : loaderData.receipt}
            confirmCancel={!actionData && loaderData.confirmCancel}
            answer={
              actionData && !isMoveAnswer(actionData)
                ? actionData
                : loaderData.moved
                  ? { ok: true, message: loaderData.moved }
                  : null
            }
            moving={Boolean(loaderData.move)}
          >
            {loaderData.move ? (
              <MoveBooking
                formId={MOVE_FORM_ID}
                paidCents={loaderData.booking.backOnCancelCents}
                availability={loaderData.move.availability}
                changeKey={loaderData.move.changeKey}
                currentVisit={`${loaderData.booking.serviceDate}|${loaderData.booking.serviceTime}`}
                visit={{ date: loaderData.booking.serviceDate, time: loaderData.booking.serviceTime }}
                answer={actionData && isMoveAnswer(actionData) ? actionData : null}
              />
            ) : null}
          </ManageBooking>
        </div>
      </section>
    </>
  );
}

function postedAnswer(kept: Record<string, unknown> | null): MoveAnswer | { ok: boolean; message: string } | undefined {
  if (!kept) return undefined;
  if (isMoveAnswer(kept)) return kept;
  return typeof kept.ok === "boolean" && typeof kept.message === "string"
    ? { ok: kept.ok, message: kept.message }
    : undefined;
}

function isMoveAnswer(answer: object): answer is MoveAnswer {
  return "form" in answer && answer.form === MOVE_FORM_ID;
}
