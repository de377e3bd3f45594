import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import type { DbOrTx } from "@db/client.server";
import { postedAnswers } from "@db/schema";
import { cachePolicy } from "~/http/cache-control";
import { siteCookieOptions } from "~/lib/cookies.server";
import { env } from "~/lib/env.server";

/**
 * Back shows the truth (issue 38 item 4, docs/decisions/072-posted-answers.md). Without
 * JavaScript, a paid form's answer that is not a success (a declined card, a full slot, "Show
 * price") used to be the page the post itself returned. After a later success, Back reached that
 * page as the browser had kept it: the stale form, inviting a payment already made. Now such a
 * post is answered Post/Redirect/Get: the answer is kept here, a 303 leads to the address the form
 * was posted to, and that GET shows it. Back after the success reaches that GET, which is never
 * stored (the form's pages are `no-store`): the server is asked again and answers what is true
 * now, the form with "You paid with this form a moment ago" and its receipt's link.
 *
 * The answer is the visitor's own: its id is in an HttpOnly cookie, and it is shown only on the
 * address it was posted to, for an hour. It holds what the page would have shown (the visitor's
 * values, never the card number, CVC or SSN, which no answer echoes: DECISIONS 29).
 *
 * With JavaScript the form posts with fetch and shows the answer in place: this is for the
 * document's own posts, which browsers mark `Sec-Fetch-Mode: navigate`. A client that does not
 * say so (an old browser, a script) gets the answer as the post's page, as before.
 */
export const POSTED_ANSWER_COOKIE = "posted_answer";
const MAX_AGE_SECONDS = 60 * 60;
const ID = /^[A-Za-z0-9_-]{32}$/;

let cookie: ReturnType<typeof createCookie> | undefined;
function answerCookie() {
  cookie ??= createCookie(
    POSTED_ANSWER_COOKIE,
    siteCookieOptions(env().SITE_URL.startsWith("https:"), { maxAge: MAX_AGE_SECONDS }),
  );
  return cookie;
}

/** Whether a post is the page's own form, sent by the browser without JavaScript (a navigation). */
export function isDocumentPost(request: Request): boolean {
  return request.method === "POST" && request.headers.get("Sec-Fetch-Mode") === "navigate";
}

/** The address a request was sent to (path and query), hashed: a booking's carries its token. */
function addressHash(request: Request): string {
  const url = new URL(request.url);
  return createHash("sha256").update(`${url.pathname}${url.search}`).digest("hex");
}

function addressOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Keeps a document post's answer and returns its 303 to the address it was posted to (the
 * browser keeps the form's `#…-status` fragment), or null when it could not be kept (the
 * database refused it): the post's own page is then the answer, as before.
 */
export async function answerAfterRedirect(
  db: DbOrTx,
  request: Request,
  form: string,
  answer: object,
): Promise<Response | null> {
  const id = randomBytes(24).toString("base64url");
  try {
    await db.insert(postedAnswers).values({ id, form, pathHash: addressHash(request), answer });
  } catch {
    return null;
  }
  const headers = new Headers(cachePolicy.noStore);
  headers.set("Location", addressOf(request));
  headers.append("Set-Cookie", await answerCookie().serialize(id));
  return new Response(null, { status: 303, headers });
}

/** The answer kept for this browser's last post to this address, if it is less than an hour old. */
export async function readPostedAnswer(db: DbOrTx, request: Request): Promise<Record<string, unknown> | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${POSTED_ANSWER_COOKIE}=`)) return null;
  const id: unknown = await answerCookie()
    .parse(header)
    .catch(() => null);
  if (typeof id !== "string" || !ID.test(id)) return null;
  const [row] = await db
    .select({ answer: postedAnswers.answer })
    .from(postedAnswers)
    .where(
      and(
        eq(postedAnswers.id, id),
        eq(postedAnswers.pathHash, addressHash(request)),
        gt(postedAnswers.createdAt, sql`now() - make_interval(secs => ${MAX_AGE_SECONDS})`),
      ),
    )
    .limit(1);
  const answer = row?.answer;
  return answer && typeof answer === "object" && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
}

/** The Set-Cookie that forgets the kept answer: sent with a success, whose page replaces it. */
export async function forgetPostedAnswer(): Promise<string> {
  return answerCookie().serialize("", { maxAge: 0 });
}

/** Whether a request carries a kept answer's cookie (a page rendered for it is the visitor's own). */
export function carriesPostedAnswer(request: Request): boolean {
  return request.headers.get("Cookie")?.includes(`${POSTED_ANSWER_COOKIE}=`) ?? false;
}

/** Answers older than an hour are read by no one. */
export async function prunePostedAnswers(db: DbOrTx): Promise<void> {
  await db
    .delete(postedAnswers)
    .where(lt(postedAnswers.createdAt, sql`now() - make_interval(secs => ${MAX_AGE_SECONDS})`));
}
