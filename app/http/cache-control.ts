/**
 * The `headers` of every page that carries a form. Such a page is never
 * stored by a browser or proxy (each answer has its own single-use captcha
 * challenge and submission key), and a refused submission's `Retry-After`
 * (429 rate limit, 503 database outage) reaches the visitor: React Router
 * keeps only the headers a route's `headers` export returns.
 */
type HeaderArgs = { actionHeaders: Headers; loaderHeaders: Headers };

export function formPageHeaders({ actionHeaders, loaderHeaders }: HeaderArgs, base?: HeadersInit): Headers {
  const headers = new Headers(base ?? { "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
