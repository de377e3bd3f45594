import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/lib/env.server";

/**
 * Cross-origin guard for every form POST (issue 4 §7). Browsers say where a
 * request comes from: Sec-Fetch-Site (modern browsers) or Origin. A POST from
 * another site is refused; requests that carry neither header (server-to-server
 * API clients, curl) are allowed — they carry no cookies of ours, and the site
 * sets none that a form relies on (any cookie is SameSite=Lax).
 *
 * The check compares strings; it never builds a URL from what the client sent
 * (a Host such as `a b` or `example.com:99999` made `new URL` throw, and the
 * throw, in front of Express, ended the process: issue 15).
 */
export const CROSS_ORIGIN_MESSAGE = "This form can only be sent from our own website.";

/** The headers the check reads. Every value is the client's word. */
export type OriginHeaders = {
  secFetchSite?: string | null;
  origin?: string | null;
  /** The Host header: the request's own origin is allowed. */
  host?: string | null;
  /**
   * X-Forwarded-Proto: fly's proxy ends TLS and forwards plain HTTP, so a
   * browser on https://host sends `Origin: https://host` to a server that sees
   * http. Only the scheme is taken from it; a browser cannot set it on a
   * cross-site form post (a fetch that sets it is preflighted, and the
   * preflight gets no CORS permission).
   */
  forwardedProto?: string | null;
};

let siteOrigin: { url: string; origin: string } | undefined;
function configuredSiteOrigin(): string {
  const url = env().SITE_URL;
  if (siteOrigin?.url !== url) siteOrigin = { url, origin: new URL(url).origin }; // validated at start (env.server.ts)
  return siteOrigin.origin;
}

/** True when a browser says this request comes from another site. `ownOrigin`: the request URL's origin, when one was already parsed. */
export function isCrossOriginHeaders(h: OriginHeaders, ownOrigin?: string): boolean {
  const site = h.secFetchSite?.trim().toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = h.origin?.trim();
  if (!origin) return false;
  if (origin === "null") return true;
  const lower = origin.toLowerCase();
  if (lower === configuredSiteOrigin().toLowerCase()) return false;
  if (ownOrigin && lower === ownOrigin.toLowerCase()) return false;
  const host = h.host?.trim().toLowerCase();
  if (host) {
    const proto = (h.forwardedProto?.split(",")[0]?.trim().toLowerCase() || "http").replace(/:$/, "");
    if (lower === `${proto}://${host}`) return false;
  }
  return !(env().FORM_ALLOWED_ORIGINS ?? []).some((allowed) => allowed.toLowerCase() === lower);
}

/** The same check on a web Request (the form pipeline, behind React Router). */
export function isCrossOrigin(request: Request): boolean {
  const h = request.headers;
  let ownOrigin: string | undefined;
  try {
    ownOrigin = new URL(request.url).origin; // React Router's URL, already parsed once
  } catch {
    ownOrigin = undefined;
  }
  return isCrossOriginHeaders(
    { secFetchSite: h.get("sec-fetch-site"), origin: h.get("origin"), host: h.get("host"), forwardedProto: h.get("x-forwarded-proto") },
    ownOrigin,
  );
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The same check in front of the whole app (server/app.ts calls it before
 * React Router, whose own origin check would answer a bare 400): any
 * state-changing request from another site gets 403 with a readable message.
 */
export function refuseCrossOriginRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const crossOrigin = isCrossOriginHeaders({
    secFetchSite: first(req.headers["sec-fetch-site"]),
    origin: first(req.headers.origin),
    host: first(req.headers.host),
    forwardedProto: first(req.headers["x-forwarded-proto"]),
  });
  if (!crossOrigin) return false;
  const json = (req.url ?? "").startsWith("/api/");
  const body = json ? JSON.stringify({ success: false, message: CROSS_ORIGIN_MESSAGE }) : CROSS_ORIGIN_MESSAGE;
  res.writeHead(403, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(body);
  return true;
}
