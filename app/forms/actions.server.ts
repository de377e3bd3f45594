import { data, redirect, replace, type RouterContextProvider } from "react-router";
import type { z } from "~/lib/zod";
import { perRender } from "~/http/page-cache.server";
import { captchaBootstrap } from "./captcha/verifier.server";
import type { CaptchaBootstrap } from "./captcha/types";
import { clientIpOf } from "~/http/client-ip.server";
import { honeypotInputProps, type HoneypotInputProps } from "./honeypot.server";
import { runForm, type FormDefinition, type FormOutcome, type RunOptions } from "./pipeline";
import { newSubmissionKey, readSubmissionKey } from "./submission-keys.server";
import { CHECK_FIELDS_MESSAGE, type FormActionData } from "./result";
import { readRecentPayment, recentPaymentCookie, type RecentPayment } from "./recent-payment.server";
import { cacheControl, cachePolicy } from "~/http/cache-control";
import { getDb } from "~/lib/db.server";
import { answerAfterRedirect, forgetPostedAnswer, isDocumentPost, readPostedAnswer } from "./posted-answer.server";

/**
 * The route glue: what a route module with a form calls, and nothing else.
 * A page's loader puts `formBootstrap()` in its data; its action is
 * `formAction(definition, args)` (renders in place, with and without
 * JavaScript); an /api/store/* route's action is `apiFormAction` (SPEC §7's
 * `{ success, message }`). Both run the one pipeline (./pipeline/)
 * with the client IP the server put in the load context.
 */

/** What a route hands over: its action arguments. */
export type ActionArgs = { request: Request; url?: URL; context?: Readonly<RouterContextProvider> };

/** What every page with a form needs in its loader: the captcha and the honeypot. */
export type FormBootstrap = {
  captcha: CaptchaBootstrap;
  honeypot: HoneypotInputProps;
  /** Idempotency key of this render: a resubmission of a stored form answers as its success. */
  submissionKey: string;
  /** A paid form: this browser paid with it a moment ago (the receipt's link leads the page). */
  recentPayment?: RecentPayment | null;
  /** A paid form: this browser's last post to this address without JavaScript, answered here after its 303. */
  answer?: FormActionData | null;
};

/**
 * A paid form's page: a payment this browser made with it a moment ago is shown with its
 * receipt's link; the answer to its post without JavaScript (./posted-answer.server.ts) is shown
 * as that post's own page showed it.
 */
export async function paidFormBootstrap(request: Request): Promise<FormBootstrap> {
  const [recentPayment, answer] = await Promise.all([
    readRecentPayment(request),
    getDb().then((db) => readPostedAnswer(db, request)),
  ]);
  // With neither, the render's registered values (perRender) stay as they are; with one, the page is never cached.
  if (!recentPayment && !answer) return formBootstrap();
  return {
    ...formBootstrap(),
    ...(recentPayment ? { recentPayment } : {}),
    ...(answer ? { answer: answer as FormActionData } : {}),
  };
}

export function formBootstrap(): FormBootstrap {
  const bootstrap = { captcha: captchaBootstrap(), honeypot: honeypotInputProps(), submissionKey: newSubmissionKey() };
  // Made anew for every answer: a reused document gets this answer's (page-cache.server.ts).
  return perRender(bootstrap, [
    bootstrap.captcha.noJs.question,
    bootstrap.captcha.noJs.token,
    bootstrap.honeypot.encryptedValidFrom,
    bootstrap.submissionKey,
  ]);
}

/** A page's `action`: renders in place (with and without JS) or redirects after success. */
export async function formAction<S extends z.ZodType>(
  def: FormDefinition<S>,
  args: ActionArgs,
  options: Omit<RunOptions, "url" | "api"> = {},
) {
  const outcome = await runForm(def, args.request, {
    ...options,
    url: args.url,
    clientIp: options.clientIp ?? clientIpOf(args.context),
  });
  // A paid form's receipt: 303 See Other says "GET the result" in so many words (what
  // browsers do with a 302 after a POST too), so a refresh there never posts again.
  // Paid: the receipt takes the form's place in the history (X-Remix-Replace, when JavaScript follows
  // the redirect), and the form's page leads with the receipt's link for an hour (Back without JavaScript).
  // The answer kept for an earlier post of the form without JavaScript is forgotten: the receipt replaces it.
  if (outcome.ok && outcome.redirectTo && def.payment) {
    const headers = new Headers({ "Set-Cookie": await recentPaymentCookie(def.id, outcome.redirectTo) });
    headers.append("Set-Cookie", await forgetPostedAnswer());
    throw replace(outcome.redirectTo, { status: 303, headers });
  }
  if (outcome.ok && outcome.redirectTo) throw redirect(outcome.redirectTo, 302);
  const body: FormActionData = {
    form: def.id,
    status: outcome.ok ? "success" : outcome.preview ? "preview" : "error",
    message: outcome.message,
    ...(outcome.notice ? { notice: outcome.notice } : {}),
    ...(outcome.photosDropped ? { photosDropped: outcome.photosDropped } : {}),
    lastResult: outcome.reply,
    ...resendHoneypot(outcome),
  };
  // A paid form posted without JavaScript: Post/Redirect/Get, so Back never reaches this answer as
  // the browser kept it after a later success (issue 38 item 4, ./posted-answer.server.ts).
  if (def.payment && isDocumentPost(args.request)) {
    const redirected = await answerAfterRedirect(await getDb(), args.request, def.id, body);
    if (redirected) throw redirected;
  }
  const headers = new Headers(outcome.headers);
  headers.set("Cache-Control", cacheControl.answer);
  return data(body, { status: outcome.status, headers });
}

/**
 * A refused or failed post is re-rendered with honeypot fields that answer it (issue 28): the
 * visitor's re-send of that render (the sum corrected, Send pressed again after a 503) is a
 * person's, and the minimum fill time does not drop it. A dropped bot's post gets none.
 */
function resendHoneypot(outcome: FormOutcome): { honeypot?: HoneypotInputProps } {
  const key = outcome.reply?.initialValue ? readSubmissionKey(toFormData(outcome.reply.initialValue)) : null;
  return !outcome.ok && outcome.answered && key
    ? { honeypot: honeypotInputProps(Date.now(), { submissionKey: key }) }
    : {};
}

function toFormData(values: Record<string, unknown>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) if (typeof value === "string") data.set(name, value);
  return data;
}

/**
 * The `loader` of an /api/store/* address that only takes POST: a GET (or HEAD) gets a 405
 * in the API's `{ success, message }` shape instead of React Router's error for a route
 * without a loader.
 */
export function apiPostOnly(): Response {
  return Response.json(
    { success: false, message: "This address answers POST only." },
    { status: 405, headers: { Allow: "POST", ...cachePolicy.noStore } },
  );
}

/** An /api/store/* route: SPEC §7's `{ success, message }` (plus field errors when there are any). */
export async function apiFormAction<S extends z.ZodType>(
  def: FormDefinition<S>,
  args: ActionArgs,
  options: Omit<RunOptions, "url" | "api"> = {},
): Promise<Response> {
  const outcome = await runForm(def, args.request, {
    ...options,
    url: args.url,
    api: true,
    clientIp: options.clientIp ?? clientIpOf(args.context),
  });
  const errors = Object.values(outcome.fieldErrors).flat();
  // An API client has no highlighted fields: name the problems in the message.
  const message =
    errors.length > 0 && outcome.message === CHECK_FIELDS_MESSAGE
      ? `Please check the form: ${errors.join(" ")}`
      : outcome.message;
  const body: Record<string, unknown> = { ...outcome.apiFields, success: outcome.ok, message };
  if (errors.length > 0) body.errors = outcome.fieldErrors;
  if (outcome.redirectTo) body.redirect = outcome.redirectTo;
  return Response.json(body, { status: outcome.status, headers: { ...cachePolicy.noStore, ...outcome.headers } });
}
