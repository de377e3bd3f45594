import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { MiddlewareFunction } from "react-router";
import { CACHE_TTL_MS, isFresh, stamp, type Stamp } from "./cache.server";
import { createNonce, pageSecurityHeaders, requestNonce } from "./security.server";

/**
 * The caches are listed, with their keys, lifetimes and invalidation, in
 * cache.server.ts (docs/decisions/047-caches.md).
 *
 * A small shared cache for whole pages that look the same to every visitor
 * (content pages). A route opts in with standard HTTP semantics: its `headers`
 * export sends `Cache-Control: … s-maxage=N` (see `sharedCacheHeaders`).
 * Pages with forms never opt in (their captcha challenge is per visitor).
 *
 * The cache is per instance and only a cache: instances may disagree for at
 * most N seconds; nothing breaks with several. Every hit gets a fresh CSP
 * nonce and the page security headers for it (security.server.ts): the stored
 * document's nonce is swapped for the new one.
 *
 * Two ways in: the root middleware (fills the cache, and answers hits that
 * reach React Router) and `servePageFromCache`, which server.mjs calls before
 * Express so a hit costs no framework work at all.
 */

/**
 * A kept document cut at every place one of its per-answer values stands (the
 * nonce, a captcha challenge…), as UTF-8 pieces: an answer is
 * `parts[0] + values[slots[0]] + parts[1] + …`. Putting new values in is a
 * copy of bytes, far cheaper than a string replace over the whole page and its
 * re-encoding (measured in docs/decisions/026-page-cache-cut-at-nonce.md).
 */
type CutDocument = { parts: Buffer[]; slots: number[]; valueCount: number };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Cuts `body` at `values` (distinct, non-empty); undefined when they are not, or when `complete` and one is missing. */
function cutDocument(body: string, values: readonly string[], complete: boolean): CutDocument | undefined {
  if (new Set(values).size !== values.length || values.some((value) => !value)) return undefined;
  const parts: Buffer[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const match of body.matchAll(new RegExp(values.map(escapeRegExp).join("|"), "g"))) {
    parts.push(Buffer.from(body.slice(last, match.index)));
    slots.push(values.indexOf(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(Buffer.from(body.slice(last)));
  if (complete && new Set(slots).size !== values.length) return undefined;
  return { parts, slots, valueCount: values.length };
}

/** The pieces of the document with `values` (in the order it was cut with) in place. */
function documentPieces(doc: CutDocument, values: readonly string[]): Buffer[] {
  const bytes = values.map((value) => Buffer.from(value));
  const pieces = [doc.parts[0]!];
  for (let i = 0; i < doc.slots.length; i++) pieces.push(bytes[doc.slots[i]!]!, doc.parts[i + 1]!);
  return pieces;
}

/** The document with `values` in place, in one buffer. */
function assembleDocument(doc: CutDocument, values: readonly string[]): Buffer<ArrayBuffer> {
  return Buffer.concat(documentPieces(doc, values)) as Buffer<ArrayBuffer>; // a new, unshared buffer
}

/** `headers`: the stored answer's headers, names in lower case, without its length. */
type Entry = { doc: CutDocument; status: number; headers: Record<string, string>; stamp: Stamp };
const MAX_ENTRIES = 200;
const cache = new Map<string, Entry>();

/** `headers` for a route whose page is the same for every visitor. */
export function sharedCacheHeaders(seconds = CACHE_TTL_MS / 1000): HeadersInit {
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
  if (!isFresh(hit.stamp)) {
    cache.delete(key);
    return undefined;
  }
  return hit;
}

/** A hit's headers: the stored ones with the security headers for its new nonce. */
function hitHeaders(hit: Entry, nonce: string): Record<string, string> {
  return { ...hit.headers, ...pageSecurityHeaders(nonce), "x-page-cache": "hit" };
}

export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method !== "GET") return next();
  const url = new URL(request.url);
  const key = keyOf(url.pathname + url.search);
  const hit = lookup(key);
  if (hit) {
    const nonce = requestNonce(context);
    return new Response(assembleDocument(hit.doc, [nonce]), { status: hit.status, headers: hitHeaders(hit, nonce) });
  }

  const response = await next();
  const ttl = sMaxAge(response);
  const type = response.headers.get("Content-Type") ?? "";
  if (
    !key ||
    ttl <= 0 ||
    response.status !== 200 ||
    !type.startsWith("text/html") ||
    response.headers.has("Set-Cookie")
  ) {
    return response;
  }
  const body = await response.text();
  cache.set(key, {
    doc: cutDocument(body, [requestNonce(context)], false)!, // the nonce the page was rendered with
    status: response.status,
    headers: Object.fromEntries([...response.headers.entries()].filter(([k]) => k !== "content-length")),
    stamp: stamp(ttl * 1000),
  });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  const headers = new Headers(response.headers);
  headers.set("X-Page-Cache", "miss");
  return new Response(body, { status: response.status, headers });
};

/**
 * Answers a GET/HEAD for a cached page straight from memory (server/app.ts,
 * before Express).
 * Returns false when the page is not cached, so the request goes on to Express.
 */
export function servePageFromCache(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const hit = lookup(keyOf(req.url ?? "/"));
  if (!hit) return false;
  const nonce = createNonce();
  const headers = hitHeaders(hit, nonce);
  headers.vary = "Accept-Encoding";
  let pieces = documentPieces(hit.doc, [nonce]);
  if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
    pieces = [gzipSync(Buffer.concat(pieces), { level: 4 })];
    headers["content-encoding"] = "gzip";
  }
  headers["content-length"] = String(pieces.reduce((sum, piece) => sum + piece.length, 0));
  res.writeHead(hit.status, headers);
  if (req.method !== "HEAD") {
    // The pieces go out as they are kept, in one write (no copy into one buffer).
    res.cork();
    for (const piece of pieces) res.write(piece);
  }
  res.end();
  return true;
}

// ── Rendered documents ──────────────────────────────────────────────

/**
 * A page's document is a pure function of what React Router hands the render:
 * the URL (the matched routes, the active link), the status and the loader,
 * action and error data. Pages with forms cannot use the page cache above
 * (each answer carries its own single-use captcha challenge and honeypot
 * timestamp), yet apart from those few strings and the nonce their document
 * is the same for every visitor: a contact page, a quote form, the "Your
 * message has been sent!" answer to a no-JS post. Copying a kept one with a few
 * strings swapped costs a small fraction of rendering it
 * (docs/decisions/025-remembered-documents.md).
 *
 * So every rendered document is remembered for a minute per instance under a
 * key made of those inputs, in which the values that are fresh for every
 * render (registered with `perRender`) stand as placeholders. When the next
 * answer has the same key, its loaders and action have run as usual and made
 * their own fresh values; the remembered document gets those, and a fresh
 * nonce, in place of its own. A GET is remembered at once; an answer to a
 * POST only when the same key is seen a second time, so the re-rendered form
 * of one visitor's failed submission (their values) is never kept.
 */
const perRenderValues = new WeakMap<object, readonly string[]>();

/**
 * Marks `value` (part of a loader's data) as made anew for every render: its
 * `fresh` strings must appear verbatim in the document (no character that
 * HTML or the hydration script would escape) and are swapped on reuse.
 */
export function perRender<T extends object>(value: T, fresh: readonly string[]): T {
  perRenderValues.set(value, fresh);
  return value;
}

/**
 * `handle` of a route whose 404 document is the same whatever the path
 * (DECISIONS 1: every unknown path shows the home content with status 404 and
 * canonical "/"). Robots probing for /wp-login.php, /.env, /admin… send endless
 * distinct paths; a route that sets this has its 404 documents keyed by route
 * instead of by path, so they share one.
 */
export type SharedNotFoundHandle = { notFoundDocumentIsShared?: boolean };

type RenderedRoutes = {
  staticHandlerContext: {
    matches: ReadonlyArray<{ route: { id: string } }>;
    loaderData: unknown;
    actionData: unknown;
    errors?: unknown;
  };
  routeModules: Record<string, { handle?: unknown } | undefined>;
};

export type DocumentKey = { key: string; fresh: string[]; firstSight: boolean };

type DocumentEntry = { doc: CutDocument; stamp: Stamp };
const documents = new Map<string, DocumentEntry>();
const seenOnce = new Map<string, number>();
const MAX_DOCUMENTS = 100;
const MAX_SEEN = 1000;

/** The key of this answer's document, or undefined when it must always be rendered. */
export function documentKey(request: Request, status: number, context: RenderedRoutes): DocumentKey | undefined {
  const method = request.method.toUpperCase();
  const { staticHandlerContext: handled } = context;
  // An error's JSON says little of what the error boundary shows: always render those.
  if (process.env.PAGE_CACHE === "off" || (method !== "GET" && method !== "POST") || handled.errors) return undefined;
  // A refused POST (field errors, 429, 503) shows what that visitor typed: it is never kept, even once seen twice.
  if (method === "POST" && status >= 400) return undefined;

  const leaf = handled.matches.at(-1)?.route.id;
  const handle = leaf ? (context.routeModules[leaf]?.handle as SharedNotFoundHandle | undefined) : undefined;
  const url = new URL(request.url);
  const where =
    status === 404 && method === "GET" && handle?.notFoundDocumentIsShared
      ? `404 of ${leaf}`
      : url.pathname + url.search;

  const fresh: string[] = [];
  let keyable = true;
  let json: string;
  try {
    json = JSON.stringify(
      [method, where, status, handled.loaderData, handled.actionData],
      function (this: unknown, name, value: unknown) {
        // A Date reaches here as its JSON text; the hydration data keeps it a Date.
        if ((this as Record<string, unknown>)[name] instanceof Date) return `\u0000date ${String(value)}`;
        if (value === undefined) return "\u0000undefined"; // JSON would drop it; the hydration data keeps it
        if (typeof value === "function" || typeof value === "symbol") keyable = false;
        if (typeof value === "object" && value !== null) {
          const values = perRenderValues.get(value);
          if (values) {
            fresh.push(...values);
            return "\u0000fresh";
          }
          // A Map, a Set, a class instance… JSON would flatten it to {}: two different ones would share a key.
          const proto = Object.getPrototypeOf(value);
          if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) keyable = false;
        }
        return value;
      },
    );
  } catch {
    return undefined; // a BigInt, a cycle
  }
  if (!keyable) return undefined;
  const key = createHash("sha256").update(json).digest("base64url");
  return { key, fresh, firstSight: method === "GET" };
}

/** The remembered document for `doc` (UTF-8), carrying this answer's nonce and fresh values; undefined when there is none. */
export function rememberedDocument(doc: DocumentKey, nonce: string): Buffer<ArrayBuffer> | undefined {
  const hit = documents.get(doc.key);
  if (!hit) return undefined;
  if (!isFresh(hit.stamp) || hit.doc.valueCount !== doc.fresh.length + 1) {
    documents.delete(doc.key);
    return undefined;
  }
  return assembleDocument(hit.doc, [nonce, ...doc.fresh]);
}

/** Keeps a rendered document for reuse (see above). */
export function rememberDocument(doc: DocumentKey, body: string, nonce: string): void {
  const now = Date.now();
  if (!doc.firstSight) {
    const seen = seenOnce.get(doc.key);
    if (!seen || seen <= now) {
      seenOnce.set(doc.key, now + CACHE_TTL_MS);
      while (seenOnce.size > MAX_SEEN) seenOnce.delete(seenOnce.keys().next().value!);
      return;
    }
  }
  // Every value must be told apart and stand where the render put it (none escaped into another form).
  const cut = cutDocument(body, [nonce, ...doc.fresh], true);
  if (!cut) return;
  documents.delete(doc.key);
  documents.set(doc.key, { doc: cut, stamp: stamp() });
  while (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
}

/** For tests. */
export function clearPageCache(): void {
  cache.clear();
  documents.clear();
  seenOnce.clear();
}
