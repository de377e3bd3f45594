import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/lib/env.server";
import { cacheControl } from "./cache-control";

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
};

let site: { url: string; origin: string; scheme: string } | undefined;
/** SITE_URL's origin and scheme (validated at start, env.server.ts). */
function configuredSite(): { origin: string; scheme: string } {
  const url = env().SITE_URL;
  if (site?.url !== url) {
    const parsed = new URL(url);
    site = { url, origin: parsed.origin, scheme: parsed.protocol.slice(0, -1) };
  }
  return site;
}

/**
 * The scheme visitors use: SITE_URL's. Behind fly's proxy TLS ends before
 * this server, which sees plain HTTP while the browser's Origin says https;
 * the scheme is taken from the configuration, never from a header
 * (X-Forwarded-Proto is the client's word when no proxy is in front).
 */
export function siteScheme(): string {
  return configuredSite().scheme;
}

/** True when a browser says this request comes from another site. `ownOrigin`: the request URL's origin, when one was already parsed. */
export function isCrossOriginHeaders(h: OriginHeaders, ownOrigin?: string): boolean {
  const site = h.secFetchSite?.trim().toLowerCase();
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = h.origin?.trim();
  if (!origin) return false;
  // A page sent with Referrer-Policy: no-referrer (a booking's manage page) posts with Origin: null;
  // the browser's own Sec-Fetch-Site, which no page can set, still says where it came from.
  if (origin === "null") return site !== "same-origin";
  const lower = origin.toLowerCase();
  const { origin: siteOrigin, scheme } = configuredSite();
  if (lower === siteOrigin.toLowerCase()) return false;
  if (ownOrigin && lower === ownOrigin.toLowerCase()) return false;
  const host = h.host?.trim().toLowerCase();
  if (host && lower === `${scheme}://${host}`) return false;
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
    { secFetchSite: h.get("sec-fetch-site"), origin: h.get("origin"), host: h.get("host") },
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
  });
  if (!crossOrigin) return false;
  const json = (req.url ?? "").startsWith("/api/");
  const body = json ? JSON.stringify({ success: false, message: CROSS_ORIGIN_MESSAGE }) : CROSS_ORIGIN_MESSAGE;
  res.writeHead(403, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": cacheControl.noStore,
  });
  res.end(body);
  return true;
}
