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
  for (const extra of (e.FORM_ALLOWED_ORIGINS ?? "").split(",")) {
    const value = extra.trim();
    if (value) origins.add(new URL(value).origin);
  }
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
