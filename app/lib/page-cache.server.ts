import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { createContext, type MiddlewareFunction } from "react-router";
import { contentSecurityPolicy, createNonce } from "./security.server";
import { cspAllowances } from "./startup.server";

/**
 * A small shared cache for whole pages that look the same to every visitor
 * (content pages). A route opts in with standard HTTP semantics: its `headers`
 * export sends `Cache-Control: … s-maxage=N` (see `sharedCacheHeaders`).
 * Pages with forms never opt in (their captcha challenge is per visitor).
 *
 * The cache is per instance and only a cache: instances may disagree for at
 * most N seconds; nothing breaks with several. Every hit gets a fresh CSP
 * nonce: the stored document's nonce is swapped for a new one.
 *
 * Two ways in: the root middleware (fills the cache, and answers hits that
 * reach React Router) and `servePageFromCache`, which server.mjs calls before
 * Express so a hit costs no framework work at all.
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

function keyOf(pathAndQuery: string): string | undefined {
  if (pathAndQuery.includes(".data")) return undefined; // client navigations fetch data, not pages
  return pathAndQuery;
}

function lookup(key: string | undefined): Entry | undefined {
  if (!key || process.env.PAGE_CACHE === "off") return undefined;
  const hit = cache.get(key);
  if (!hit) return undefined;
  if (hit.expires <= Date.now()) {
    cache.delete(key);
    return undefined;
  }
  return hit;
}

function render(hit: Entry): { body: string; headers: Headers } {
  const nonce = createNonce();
  const headers = new Headers(hit.headers);
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, cspAllowances()));
  headers.set("X-Page-Cache", "hit");
  return { body: hit.body.replaceAll(hit.nonce, nonce), headers };
}

export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const nonce = createNonce();
  context.set(nonceContext, nonce);
  if (request.method !== "GET") return next();
  const url = new URL(request.url);
  const key = keyOf(url.pathname + url.search);
  const hit = lookup(key);
  if (hit) {
    const { body, headers } = render(hit);
    return new Response(body, { status: hit.status, headers });
  }

  const response = await next();
  const ttl = sMaxAge(response);
  const type = response.headers.get("Content-Type") ?? "";
  if (!key || ttl <= 0 || response.status !== 200 || !type.startsWith("text/html") || response.headers.has("Set-Cookie")) {
    return response;
  }
  const body = await response.text();
  cache.set(key, {
    body,
    status: response.status,
    headers: [...response.headers.entries()].filter(([k]) => k !== "content-length"),
    nonce,
    expires: Date.now() + ttl * 1000,
  });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  const headers = new Headers(response.headers);
  headers.set("X-Page-Cache", "miss");
  return new Response(body, { status: response.status, headers });
};

/**
 * Answers a GET/HEAD for a cached page straight from memory (server.mjs).
 * Returns false when the page is not cached, so the request goes on to Express.
 */
export function servePageFromCache(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const hit = lookup(keyOf(req.url ?? "/"));
  if (!hit) return false;
  const { body, headers } = render(hit);
  let payload: Buffer = Buffer.from(body);
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    payload = gzipSync(payload, { level: 4 });
    headers.set("Content-Encoding", "gzip");
  }
  headers.set("Vary", "Accept-Encoding");
  headers.set("Content-Length", String(payload.length));
  const out: Record<string, string> = {};
  headers.forEach((v, k) => (out[k] = v));
  res.writeHead(hit.status, out);
  res.end(req.method === "HEAD" ? undefined : payload);
  return true;
}

// ── Not-found documents ─────────────────────────────────────────────

/**
 * `handle` of a route whose 404 document is the same whatever the path
 * (DECISIONS 1: every unknown path shows the home content with status 404 and
 * canonical "/"). The page cache above is keyed by path, and robots probing
 * for /wp-login.php, /.env, /admin… send endless distinct paths: each one cost
 * a whole server render, 30 times a cached page. A route that sets this gets
 * its 404 document rendered once per minute and per instance instead; its
 * loaders still run, only the render is reused.
 */
export type SharedNotFoundHandle = { notFoundDocumentIsShared?: boolean };

type NotFoundEntry = { body: string; nonce: string; expires: number };
const notFoundDocuments = new Map<string, NotFoundEntry>();
const NOT_FOUND_TTL_MS = 60_000;

type RenderedRoutes = {
  staticHandlerContext: { matches: ReadonlyArray<{ route: { id: string } }>; errors?: unknown };
  routeModules: Record<string, { handle?: unknown } | undefined>;
};

/**
 * The key under which this answer's document may be shared: the answering
 * route's id, when the answer is a plain 404 (no error boundary) to a GET and
 * that route opted in. Otherwise undefined.
 */
export function sharedNotFoundKey(request: Request, status: number, context: RenderedRoutes): string | undefined {
  if (status !== 404 || request.method !== "GET" || context.staticHandlerContext.errors) return undefined;
  if (process.env.PAGE_CACHE === "off") return undefined;
  const leaf = context.staticHandlerContext.matches.at(-1)?.route.id;
  const handle = leaf ? (context.routeModules[leaf]?.handle as SharedNotFoundHandle | undefined) : undefined;
  return handle?.notFoundDocumentIsShared ? leaf : undefined;
}

/** The shared 404 document for `key`, carrying `nonce`; undefined when there is none yet. */
export function sharedNotFoundDocument(key: string, nonce: string): string | undefined {
  const hit = notFoundDocuments.get(key);
  if (!hit) return undefined;
  if (hit.expires <= Date.now()) {
    notFoundDocuments.delete(key);
    return undefined;
  }
  return hit.body.replaceAll(hit.nonce, nonce);
}

export function rememberNotFoundDocument(key: string, body: string, nonce: string): void {
  notFoundDocuments.set(key, { body, nonce, expires: Date.now() + NOT_FOUND_TTL_MS });
}

/** For tests. */
export function clearPageCache(): void {
  cache.clear();
  notFoundDocuments.clear();
}
