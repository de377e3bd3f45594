/**
 * The addresses that carry a secret (DECISIONS 32, issue 38 item 8): a booking's manage link
 * `/booking/{token}` and an order's page `/order/{token}`, whose token is the only key to what a
 * visitor paid for. The one place that knows them:
 *  - every answer to such an address, whatever answers it (the page, its 404 for a wrong,
 *    malformed or cross-type token, a data request, a refused post, the server's own 400), is
 *    stored nowhere, sent with no Referer and not indexed: server/app.ts sets
 *    `secretLinkHeaders` (app/http/security.server.ts) on it just before its headers go out;
 *  - no log line holds the token: paths are logged through `loggablePath`, and the logger passes
 *    every line through `redactLinkSecrets` (app/lib/log.server.ts), whoever wrote it.
 *
 * React Router matches paths case-insensitively and after decoding them, so `/BOOKING/…` and
 * `/b%6Foking/…` reach the booking's route too: both count.
 */

/** The first segment of a secret-carrying path, and something after it. */
const SECRET_PATH = /^\/+(?:booking|order)\/+[^/]/i;

/** A path's text as React Router matches it: decoded, or as sent when an escape does not decode. */
function decoded(path: string): string {
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The path of a request target (`/booking/abc?booked#x` → `/booking/abc`). */
const pathPart = (target: string) => target.replace(/[?#].*$/s, "");

/** Whether a request target (a path, with or without its query) names a secret link. */
export function carriesLinkSecret(target: string): boolean {
  const path = pathPart(target);
  return SECRET_PATH.test(path) || SECRET_PATH.test(decoded(path));
}

/** A signed receipt's address (`/pay-invoice/receipt/{id}?sig=…`, the booking form's too): one payer's page. */
const SIGNED_RECEIPT_PATH = /^\/+(?:pay-invoice|request-service)\/+receipt\/+[^/]/i;

/**
 * Whether an answer to this target is one visitor's private page: a secret link, or a signed
 * receipt. Both get the same headers (stored nowhere, no Referer, never indexed); only a secret
 * link's token is kept out of the logs (a receipt's path holds a payment's number, its query the
 * signature, and queries are never logged).
 */
export function isPrivatePage(target: string): boolean {
  const path = pathPart(target);
  return carriesLinkSecret(path) || SIGNED_RECEIPT_PATH.test(path) || SIGNED_RECEIPT_PATH.test(decoded(path));
}

/** What stands in a log for a link's token. */
export const TOKEN_PLACEHOLDER = ":token";

/** The longest path a log line keeps. */
const LOGGED_PATH_MAX = 300;

/**
 * A request target as a log line may hold it: without its query (a query can carry anything a
 * visitor typed, DECISIONS 15), a secret link's token replaced (`/booking/:token`, whatever
 * followed it dropped), at most 300 characters.
 */
export function loggablePath(target: string | undefined): string {
  const path = pathPart(target ?? "");
  if (carriesLinkSecret(path)) {
    const first = /^\/+([^/]+)/.exec(decoded(path))?.[1]?.toLowerCase() === "order" ? "order" : "booking";
    return `/${first}/${TOKEN_PLACEHOLDER}`;
  }
  return path.slice(0, LOGGED_PATH_MAX);
}

/**
 * `/booking/` or `/order/` and what follows up to a slash, a query, a quote or a space; not the
 * source folder `app/booking/` that a stack trace names.
 */
const SECRET_IN_TEXT = /(?<!\/app)(\/(?:booking|order)\/+)[^\s/?#"'`\\<>]+/gi;

/**
 * `text` (a log line, an error's message or stack) with the token of every secret link in it
 * replaced: `/booking/<token>` becomes `/booking/:token`, and the same for `/order/`.
 */
export function redactLinkSecrets(text: string): string {
  return text.replace(SECRET_IN_TEXT, `$1${TOKEN_PLACEHOLDER}`);
}
