import { createContext, type MiddlewareFunction } from "react-router";
import { contentSecurityPolicy, createNonce } from "./security.server";
import { cspAllowances } from "./startup.server";

/**
 * A small shared-cache for whole pages that look the same to every visitor
 * (content pages). A route opts in through standard HTTP semantics: its
 * `headers` export sends `Cache-Control: … s-maxage=N` (see `sharedCacheHeaders`).
 * Pages with forms never opt in (their captcha challenge is per visitor).
 *
 * The cache is per instance and only a cache: instances may disagree for at
 * most N seconds, nothing breaks when there are several. Each hit gets a fresh
 * CSP nonce: the cached document's nonce is swapped for a new one.
 */
export const nonceContext = createContext<string>("");

type Entry = { body: string; status: number; headers: [string, string][]; nonce: string; expires: number };
const MAX_ENTRIES = 200;
const cache = new Map<string, Entry>();

/** `headers` for a route whose page is the same for every visitor. */
export function sharedCacheHeaders(seconds = 60): HeadersInit {
  return { "Cache-Control": `public, max-age=0, s-maxage=${seconds}, must-revalidate` };
}

function sMaxAge(response: Response): number {
  const m = /(?:^|,)\s*s-maxage=(\d+)/.exec(response.headers.get("Cache-Control") ?? "");
  return m ? Number(m[1]) : 0;
}

function cacheable(request: Request): boolean {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  return !url.pathname.endsWith(".data");
}

export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const nonce = createNonce();
  context.set(nonceContext, nonce);
  if (!cacheable(request) || process.env.PAGE_CACHE === "off") return next();

  const key = request.url;
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) {
    // LRU: move to the end.
    cache.delete(key);
    cache.set(key, hit);
    const headers = new Headers(hit.headers);
    headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, cspAllowances()));
    headers.set("X-Page-Cache", "hit");
    return new Response(hit.body.replaceAll(hit.nonce, nonce), { status: hit.status, headers });
  }

  const response = await next();
  const ttl = sMaxAge(response);
  const type = response.headers.get("Content-Type") ?? "";
  if (ttl <= 0 || response.status !== 200 || !type.startsWith("text/html") || response.headers.has("Set-Cookie")) {
    return response;
  }
  const body = await response.text();
  cache.set(key, {
    body,
    status: response.status,
    headers: [...response.headers.entries()],
    nonce,
    expires: Date.now() + ttl * 1000,
  });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  const headers = new Headers(response.headers);
  headers.set("X-Page-Cache", "miss");
  return new Response(body, { status: response.status, headers });
};

/** For tests. */
export function clearPageCache(): void {
  cache.clear();
}
