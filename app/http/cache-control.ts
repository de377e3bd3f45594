/**
 * Every Cache-Control the app sends, by name (issue 28 item 2): routes and
 * modules take a policy from here and never write the header's value
 * themselves. `cacheControl` holds the values; `cachePolicy` the same as
 * `{ "Cache-Control": … }` headers, to return from a `headers` export or to
 * spread into a Response's headers.
 */
export const cacheControl = {
  /** Stored nowhere: API answers, health checks, captcha challenges, refusals. */
  noStore: "no-store",
  /**
   * One visitor's page or answer, stored nowhere (not even by their browser):
   * pages with a form (each has its own captcha challenge and submission
   * key), receipts, the cart.
   */
  private: "private, no-store",
  /**
   * A form's answer to a post (refused, or "Show price"): kept by the visitor's own browser only,
   * so Back to it after a later success shows it again instead of asking to post the form again.
   * It never holds a secret: the card number, CVC and SSN are not echoed (DECISIONS 29).
   */
  answer: "private, max-age=0",
  /** The same for everyone but asked for again every time, and never kept by the shared page cache (a search's results). */
  revalidate: "public, max-age=0, must-revalidate",
  /** A file a route writes (robots.txt, sitemap.xml): kept an hour by browsers and proxies. */
  publicHour: "public, max-age=3600",
} as const;

/**
 * A page that is the same for every visitor, kept `seconds` by shared caches
 * (the server's page cache, app/http/page-cache.server.ts, reads `s-maxage`)
 * and asked for again by browsers.
 */
export function sharedCacheControl(seconds: number): string {
  return `public, max-age=0, s-maxage=${seconds}, must-revalidate`;
}

export type CachePolicyHeader = Readonly<{ "Cache-Control": string }>;

const header = (value: string): CachePolicyHeader => Object.freeze({ "Cache-Control": value });

export const cachePolicy = {
  noStore: header(cacheControl.noStore),
  private: header(cacheControl.private),
  answer: header(cacheControl.answer),
  revalidate: header(cacheControl.revalidate),
  publicHour: header(cacheControl.publicHour),
  shared: (seconds: number): CachePolicyHeader => header(sharedCacheControl(seconds)),
} as const;

/**
 * The `headers` of every page that carries a form. Such a page is never
 * stored by a browser or proxy (each answer has its own single-use captcha
 * challenge and submission key), and a refused submission's `Retry-After`
 * (429 rate limit, 503 database outage) reaches the visitor: React Router
 * keeps only the headers a route's `headers` export returns.
 */
type HeaderArgs = { actionHeaders: Headers; loaderHeaders: Headers };

export function formPageHeaders({ actionHeaders, loaderHeaders }: HeaderArgs, base?: HeadersInit): Headers {
  const headers = new Headers(base ?? cachePolicy.private);
  // An action's answer says its own policy (cachePolicy.answer).
  const answered = actionHeaders.get("Cache-Control");
  if (answered) headers.set("Cache-Control", answered);
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
