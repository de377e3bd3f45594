import type { Database } from "@db/client.server";
import { data, redirect } from "react-router";
import {
  answerAfterRedirect,
  forgetPostedAnswer,
  isDocumentPost,
  readPostedAnswer,
} from "~/forms/posted-answer.server";
import { newSubmissionKey } from "~/forms/submission-keys.server";
import { readBody } from "~/http/read-body.server";
import { BodyError } from "~/http/body.server";
import { cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { loadAvailability } from "./availability.server";
import { cancelBooking } from "./cancel.server";
import { bookingReceipt, findBookingByToken, lastMoveNote } from "./manage.server";
import { MOVE_FORM_ID } from "./move-form";
import { answerMove } from "./move-form.server";
import { bookingChangesSentence } from "./online-changes.server";
import { changePolicy } from "./policy";

/** The cancellation's answer, as a posted answer is kept (its form). */
const CANCEL_ANSWER = "booking-cancel";

/**
 * What a booking's manage page (/booking/{token}) shows: the booking, its change policy and, by the
 * address's query, the receipt after paying (?booked), the no-JS cancel confirmation (?cancel), the
 * move form's calendar (?move) and what a move changed (?moved). An unknown token is the site's 404.
 */
export async function loadManagePage(request: Request, token: string | undefined) {
  const db = await getDb();
  const booking = await findBookingByToken(db, token);
  if (!booking) throw data("Booking not found", { status: 404, headers: { "Referrer-Policy": "no-referrer" } });
  const search = new URL(request.url).searchParams;
  const justBooked = search.has("booked");
  // What this browser's last post here without JavaScript answered (its 303 led here).
  const posted = await readPostedAnswer(db, request);
  const move = search.has("move") && booking.canChange;
  return {
    booking,
    policy: changePolicy(env().BOOKING_CHANGE_CUTOFF_HOURS, { onPage: true }),
    // Until when this visit can be changed online, or that it no longer can (DECISIONS 37).
    changes: bookingChangesSentence(booking, env().BOOKING_CHANGE_CUTOFF_HOURS),
    // Right after paying (the booking form's redirect): SPEC's success text and the receipt line lead.
    receipt: justBooked ? bookingReceipt(booking) : null,
    // The no-JS confirmation step: /booking/{token}?cancel shows "Yes, cancel" before anything happens.
    confirmCancel: search.has("cancel") && booking.canChange,
    // Moving the visit (?move): the calendar's availability and this render's change key.
    move: move ? { availability: await loadAvailability(db), changeKey: newSubmissionKey() } : null,
    // After a move (?moved): what changed, from the booking's history.
    moved: search.has("moved") ? await lastMoveNote(db, token) : null,
    posted,
  };
}

/** What the manage page's loader gives its view (./BookingPage.tsx). */
export type ManagePageData = Awaited<ReturnType<typeof loadManagePage>>;

/**
 * A post to a booking's manage page: moving the visit ("Show price", "Move my visit": posted to
 * ?move), or "Cancel booking" (after its confirmation).
 */
export async function answerBookingPost(request: Request, token: string | undefined, clientIp: string | null) {
  const db = await getDb();
  if (new URL(request.url).searchParams.has("move")) return answerMovePost(db, request, clientIp);
  return answerCancelPost(db, request, token);
}

/** The move form's post: THE form pipeline reads and bounds its body (./move-form.server.ts). */
async function answerMovePost(db: Database, request: Request, clientIp: string | null) {
  const answer = await answerMove(db, request, clientIp);
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

/** "Cancel booking", confirmed: the only other intent this page takes. */
async function answerCancelPost(db: Database, request: Request, token: string | undefined) {
  // The body bounded by bytes read, as every form's (a hostile post cannot make it hold more).
  const body = await readBody(request).catch((error: unknown) => (error instanceof BodyError ? error : null));
  if (body instanceof BodyError) return data({ ok: false, message: body.message }, { status: body.status });
  if (body?.fields.get("intent") !== "cancel") return data({ ok: false, message: "Nothing to do." }, { status: 400 });
  const outcome = await cancelBooking(db, token);
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
