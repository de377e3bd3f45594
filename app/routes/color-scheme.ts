import { redirect } from "react-router";
import type { Route } from "./+types/color-scheme";
import { BodyError, readBytes } from "~/http/body.server";
import { cacheControl } from "~/http/cache-control";
import { env } from "~/lib/env.server";
import { COLOR_SCHEME_COOKIE, colorSchemeCookieAttributes, isScheme } from "~/shell/color-scheme";

/**
 * The colour toggle without JavaScript (docs/decisions/062-colour-mode-and-carousel.md):
 * the header's toggle is a form posting `scheme` (light, dark or auto) and
 * `back` (the page's path) here; the answer stores the choice in the cookie
 * the server renders on `<html>` and sends the visitor back to the page: the
 * Referer (path and query) when the browser sent one of this site, else `back`. With JavaScript the same button changes the scheme in place.
 */
const MAX_BODY = 4096;

/**
 * A path of this site to go back to (one leading slash, no scheme, no host), as the URL parser
 * writes it: percent-encoded UTF-8 (`/café` → `/caf%C3%A9`), control characters encoded or
 * dropped, so the Location header holds only what a header may. Null for anything else.
 */
function sitePath(value: string | null | undefined): string | null {
  if (!value || value.length > 2048 || !/^\/(?![/\\])/.test(value)) return null;
  const base = "http://site.invalid";
  const url = URL.parse(value, base);
  return url && url.origin === base ? url.pathname + url.search : null;
}

function backPath(request: Request, back: string | null): string {
  const referer = URL.parse(request.headers.get("Referer") ?? "");
  const ownHosts = [new URL(request.url).host, new URL(env().SITE_URL).host]; // behind a proxy the first may be internal
  if (referer && ownHosts.includes(referer.host)) {
    const path = sitePath(referer.pathname + referer.search);
    if (path && referer.pathname !== "/color-scheme") return path;
  }
  return sitePath(back) ?? "/";
}

function refuse(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": cacheControl.noStore },
  });
}

export async function action({ request }: Route.ActionArgs) {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("Content-Type") ?? "")) {
    return refuse(415, "The colour scheme is sent as a form.");
  }
  let body: Uint8Array;
  try {
    body = await readBytes(request, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyError) return refuse(error.status, error.message);
    throw error;
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const scheme = form.get("scheme");
  if (!isScheme(scheme)) return refuse(400, "Choose light, dark or auto.");
  return redirect(backPath(request, form.get("back")), {
    status: 303,
    headers: {
      "Set-Cookie": `${COLOR_SCHEME_COOKIE}=${scheme}; ${colorSchemeCookieAttributes(env().SITE_URL.startsWith("https:"))}`,
      "Cache-Control": cacheControl.noStore,
    },
  });
}

/** Typed or followed as a link: nothing to show here. */
export function loader() {
  return redirect("/", 303);
}
