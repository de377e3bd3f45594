import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/lib/env.server";

/**
 * Cross-origin guard for every form POST (issue 4 §7). Browsers say where a
 * request comes from: Sec-Fetch-Site (modern browsers) or Origin. A POST from
 * another site is refused; requests that carry neither header (server-to-server
 * API clients, curl) are allowed — they carry no cookies of ours, and the site
 * sets none that a form relies on (any cookie is SameSite=Lax).
 */
export const CROSS_ORIGIN_MESSAGE = "This form can only be sent from our own website.";

function allowedOrigins(request: Request): Set<string> {
  const e = env();
  const origins = new Set<string>([new URL(e.SITE_URL).origin, new URL(request.url).origin]);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (host) {
    const proto = request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.replace(":", "");
    origins.add(`${proto}://${host}`);
  }
  for (const extra of e.FORM_ALLOWED_ORIGINS ?? []) origins.add(extra);
  return origins;
}

export function isCrossOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  if (origin === "null") return true;
  return !allowedOrigins(request).has(origin);
}

/**
 * The same check in front of the whole app (server.mjs calls it before React
 * Router, whose own origin check would answer a bare 400): any state-changing
 * request from another site gets 403 with a readable message.
 */
export function refuseCrossOriginRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const headers = new Headers();
  for (const name of ["host", "origin", "sec-fetch-site", "x-forwarded-host", "x-forwarded-proto"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { method: "HEAD", headers });
  if (!isCrossOrigin(request)) return false;
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
