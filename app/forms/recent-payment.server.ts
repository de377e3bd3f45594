import { createCookie } from "react-router";
import { env } from "~/lib/env.server";
import { siteCookieOptions } from "~/lib/cookies.server";

/**
 * "You paid a moment ago" (issue 29 item 7, issue 30 item 7): after a paid form's success the
 * browser keeps, for an hour, which form it paid and the receipt's address. The form's page then
 * leads with that link, so Back or a fresh visit after paying shows the receipt's way instead
 * of an empty form inviting a second payment (the receipt also replaces the form in the history
 * when JavaScript follows the redirect). The address is the visitor's own (their booking's
 * link), so the cookie is HttpOnly and a page rendered for it is never cached or shared
 * (app/http/page-cache.server.ts). A value that is not one of our receipt addresses is ignored.
 */
export const RECENT_PAYMENT_COOKIE = "recent_payment";
const MAX_AGE_SECONDS = 60 * 60;
const RECEIPT_PATH =
  /^\/(booking\/[A-Za-z0-9_-]{43}(\?booked)?|[a-z-]+\/receipt\/\d+\?sig=[A-Za-z0-9_-]+|order-confirmation\?[A-Za-z0-9=&_-]+|order\/[A-Za-z0-9_-]{43}(\?placed)?)$/;
const FORM_ID = /^[a-z-]{1,40}$/;

export type RecentPayment = { form: string; path: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function recentCookie() {
  cookie ??= createCookie(
    RECENT_PAYMENT_COOKIE,
    siteCookieOptions(env().SITE_URL.startsWith("https:"), { maxAge: MAX_AGE_SECONDS }),
  );
  return cookie;
}

/** The Set-Cookie of a paid form's success. */
export async function recentPaymentCookie(form: string, path: string): Promise<string> {
  return recentCookie().serialize({ form, path } satisfies RecentPayment);
}

/** The payment this browser made a moment ago, if its cookie holds one of our receipts. */
export async function readRecentPayment(request: Request): Promise<RecentPayment | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${RECENT_PAYMENT_COOKIE}=`)) return null;
  const value: unknown = await recentCookie()
    .parse(header)
    .catch(() => null);
  if (!value || typeof value !== "object") return null;
  const { form, path } = value as Record<string, unknown>;
  return typeof form === "string" && typeof path === "string" && FORM_ID.test(form) && RECEIPT_PATH.test(path)
    ? { form, path }
    : null;
}

/** Whether a request carries the cookie (a page rendered for it is the visitor's own). */
export function carriesRecentPayment(request: Request): boolean {
  return request.headers.get("Cookie")?.includes(`${RECENT_PAYMENT_COOKIE}=`) ?? false;
}
