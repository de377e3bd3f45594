import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { MiddlewareFunction } from "react-router";
import { BoundedCache, CACHE_TTL_MS, stamp, type Stamp } from "~/lib/cache.server";
import { env } from "~/lib/env.server";
import { cacheControl, sharedCacheControl } from "./cache-control";
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
 * reach React Router) and `servePageFromCache`, which server/app.ts calls before
 * Express so a hit costs no framework work at all.
 *
 * Which requests are a visitor's own is said by the capabilities that set
 * their cookies (a receipt's, a kept answer's, a color scheme's, a cart's):
 * root.tsx and server/app.ts hand those tests in (`PageCacheVisitor`), so this
 * module imports none of them.
 */

/** What the cache asks of a request: the capabilities that own the cookies answer (root.tsx). */
export type PageCacheVisitor = {
  /**
   * A page rendered for this request is the visitor's alone (a payment's receipt a moment ago, a
   * paid form's kept answer, the light or dark scheme they chose): it is never answered from the
   * cache, never kept, and no other cache may keep it.
   */
  ownPage: (request: Request) => boolean;
  /**
   * The visitor has a cart: a kept page that runs the app may answer them (the header's count
   * comes from the browser then); a page that runs no script cannot ask, so it is rendered for
   * them, shows their cart's count and is theirs alone.
   */
  hasCart: (cookieHeader: string | null | undefined) => boolean;
};

/**
 * A kept document cut at every place one of its per-answer values stands (the
 * nonce, a captcha challenge…), as UTF-8 pieces: an answer is
 * `parts[0] + values[slots[0]] + parts[1] + …`. Putting new values in is a
 * copy of bytes, far cheaper than a string replace over the whole page and its
 * re-encoding (measured in docs/decisions/026-page-cache-cut-at-nonce.md).
 * The pieces are views of one buffer of the whole document, whose length is
 * `bytes` (what the caches' byte bounds count): small pieces of their own
 * would each hold on to a shared 8 KB slab of Node's buffer pool.
 */
type CutDocument = { parts: Buffer[]; slots: number[]; valueCount: number; bytes: number };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Cuts `body` at `values` (distinct, non-empty); undefined when they are not, or when `complete` and one is missing. */
function cutDocument(body: string, values: readonly string[], complete: boolean): CutDocument | undefined {
  if (new Set(values).size !== values.length || values.some((value) => !value)) return undefined;
  const whole = Buffer.from(body);
  const parts: Buffer[] = [];
  const slots: number[] = [];
  let last = 0;
  let at = 0; // byte offset of `last` in `whole`
  for (const match of body.matchAll(new RegExp(values.map(escapeRegExp).join("|"), "g"))) {
    const length = Buffer.byteLength(body.slice(last, match.index));
    parts.push(whole.subarray(at, at + length));
    slots.push(values.indexOf(match[0]));
    at += length + Buffer.byteLength(match[0]);
    last = match.index + match[0].length;
  }
  parts.push(whole.subarray(at));
  if (complete && new Set(slots).size !== values.length) return undefined;
  return { parts, slots, valueCount: values.length, bytes: whole.length };
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
/** `scriptless`: the page runs no script (`<html data-scripts="off">`, app/shell/page-scripts.ts). */
type Entry = { doc: CutDocument; status: number; headers: Record<string, string>; stamp: Stamp; scriptless: boolean };
/**
 * Bounded by entries and by bytes (docs/decisions/052-bounded-caches.md): the
 * site's cacheable pages (content pages, the shop's categories and sorts, the
 * products) fit several times over; what does not fit is rendered again.
 */
const MAX_ENTRIES = 200;
const MAX_BYTES = 8 * 1024 * 1024;
const cache = new BoundedCache<Entry>(MAX_ENTRIES, MAX_BYTES);

/** What a kept entry weighs: its document, its key and its headers. */
const weight = (key: string, doc: CutDocument, headers?: Record<string, string>) =>
  doc.bytes + key.length + (headers ? JSON.stringify(headers).length : 0);

/** `headers` for a route whose page is the same for every visitor. */
export function sharedCacheHeaders(seconds = CACHE_TTL_MS / 1000): HeadersInit {
  return { "Cache-Control": sharedCacheControl(seconds) };
}

function sMaxAge(response: Response): number {
  const m = /(?:^|,)\s*s-maxage=(\d+)/.exec(response.headers.get("Cache-Control") ?? "");
  return m ? Number(m[1]) : 0;
}

/**
 * The query parameters each page's loader reads, by path (grep the loaders
 * for `searchParams.get`). Every other parameter (`utm_*`, `gclid`, `fbclid`,
 * `msclkid`, anything a link or a robot appends) changes nothing the page
 * shows, so it is left out of the cache keys: `/?gclid=1`, `/?gclid=2` and `/`
 * are one entry, and a stream of ad clicks, each with its own id, adds none
 * (issue 28 item 8). A route that starts reading a parameter must be listed
 * here, or it would be answered the page cached without it
 * (page-cache.server.test.ts checks the loaders against this list).
 */
const READ_PARAMS: ReadonlyArray<readonly [path: RegExp, reads: (name: string) => boolean]> = [
  [/^\/request-(?:quote|service)$/, (name) => name === "type"], // the choosers
  [/^\/shop$/, (name) => name === "category" || name === "q" || name === "sort"], // app/shop/query.ts
  [/^\/product\/[^/]+$/, (name) => name.startsWith("selectedOptions.") || name === "quantity"], // optionFieldName, QUANTITY_FIELD: no-JS options
  [/^\/my-cart$/, (name) => name === "remove"],
  [/^\/order-confirmation$/, (name) => name === "order" || name === "payment"],
  [/^\/(?:request-service|pay-invoice)\/receipt\/[^/]+$/, (name) => name === "sig"],
  [/^\/api\/service-area$/, (name) => name === "zip"],
  [/^\/booking\/[^/]+$/, (name) => name === "booked" || name === "cancel"], // searchParams.has
  [/^\/order\/[^/]+$/, (name) => name === "placed"], // searchParams.has
];

/**
 * A page's key: its path and the parameters its route reads, in the order
 * sent; `dropped` lists the other `name=value` pieces of the query as sent.
 */
type PageKey = { key: string; dropped: string[] };

function pageKeyOf(pathAndQuery: string): PageKey | undefined {
  const url = pathAndQuery.startsWith("/") ? URL.parse(`http://k${pathAndQuery}`) : null;
  if (!url) return undefined;
  const { pathname, search } = url;
  if (!search) return { key: pathname, dropped: [] };
  const reads = READ_PARAMS.find(([path]) => path.test(pathname))?.[1];
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const piece of search.slice(1).split("&")) {
    if (!piece) continue;
    const eq = piece.indexOf("=");
    let name: string;
    try {
      name = decodeURIComponent((eq < 0 ? piece : piece.slice(0, eq)).replaceAll("+", " "));
    } catch {
      name = piece; // a bad escape: kept as typed (URLSearchParams would too)
    }
    (reads?.(name) ? kept : dropped).push(piece);
  }
  return { key: kept.length ? `${pathname}?${kept.join("&")}` : pathname, dropped };
}

/**
 * Whether a document rendered for a URL with `dropped` parameters may stand
 * for the URL without them: none of them appears in it (a form whose action
 * repeats the query, say). When one does, the answer is not kept.
 */
function showsNoneOf(body: string, dropped: readonly string[]): boolean {
  return dropped.every((piece) => !body.includes(piece) && !body.includes(piece.replaceAll("&", "&amp;")));
}

function keyOf(pathAndQuery: string): PageKey | undefined {
  if (pathAndQuery.includes(".data")) return undefined; // client navigations fetch data, not pages
  return pageKeyOf(pathAndQuery);
}

/** The shared page cache's key of a request target (path and query); undefined: never cached. */
export function pageCacheKey(pathAndQuery: string): string | undefined {
  return keyOf(pathAndQuery)?.key;
}

function lookup(page: PageKey | undefined, hasCart: boolean): Entry | undefined {
  if (!page || env().PAGE_CACHE === "off") return undefined;
  const hit = cache.get(page.key);
  return hit && !(hit.scriptless && hasCart) ? hit : undefined;
}

/** A hit's headers: the stored ones with the security headers for its new nonce. */
function hitHeaders(hit: Entry, nonce: string): Record<string, string> {
  return { ...hit.headers, ...pageSecurityHeaders(nonce), "x-page-cache": "hit" };
}

/** The root middleware: answers a kept page, or keeps the page rendered when its route opts in. */
export function pageCacheMiddleware(visitor: PageCacheVisitor): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    if (request.method !== "GET") return next();
    if (visitor.ownPage(request)) return privately(await next());
    const url = new URL(request.url);
    const page = keyOf(url.pathname + url.search);
    const hit = lookup(page, visitor.hasCart(request.headers.get("Cookie")));
    if (hit) {
      const nonce = requestNonce(context);
      return new Response(assembleDocument(hit.doc, [nonce]), { status: hit.status, headers: hitHeaders(hit, nonce) });
    }
    if (visitor.hasCart(request.headers.get("Cookie"))) {
      const response = await next();
      return (response.headers.get("Content-Type") ?? "").startsWith("text/html") ? privately(response) : response;
    }
    const response = await next();
    return page && keepable(response) ? keep(page, response, requestNonce(context)) : response;
  };
}

/** A visitor's own answer: stored nowhere. */
function privately(response: Response): Response {
  response.headers.set("Cache-Control", cacheControl.private);
  return response;
}

/** Whether a rendered answer may be kept: a whole HTML page whose route asked for it, setting no cookie. */
function keepable(response: Response): boolean {
  return (
    sMaxAge(response) > 0 &&
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie")
  );
}

/** Keeps the page (unless it shows a parameter its key leaves out) and answers it, marked a miss. */
async function keep(page: PageKey, response: Response, nonce: string): Promise<Response> {
  const body = await response.text();
  if (showsNoneOf(body, page.dropped)) {
    const doc = cutDocument(body, [nonce], false)!; // the nonce the page was rendered with
    const kept = Object.fromEntries([...response.headers.entries()].filter(([k]) => k !== "content-length"));
    const scriptless = body.slice(0, 512).includes('data-scripts="off"');
    const entry = { doc, status: response.status, headers: kept, stamp: stamp(sMaxAge(response) * 1000), scriptless };
    cache.set(page.key, entry, weight(page.key, doc, kept));
  }
  const headers = new Headers(response.headers);
  headers.set("X-Page-Cache", "miss");
  return new Response(body, { status: response.status, headers });
}

/**
 * Answers a GET/HEAD for a cached page straight from memory (server/app.ts,
 * before Express).
 * Returns false when the page is not cached, so the request goes on to Express.
 */
export function servePageFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  visitor: { ownPage: (cookieHeader: string | undefined) => boolean; hasCart: PageCacheVisitor["hasCart"] },
): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (visitor.ownPage(req.headers.cookie)) return false; // rendered for the visitor (the middleware)
  const hit = lookup(keyOf(req.url ?? "/"), visitor.hasCart(req.headers.cookie));
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

/** `dropped`: the query's pieces the route does not read, left out of the key (see READ_PARAMS). */
export type DocumentKey = { key: string; fresh: string[]; firstSight: boolean; dropped: string[] };

type DocumentEntry = { doc: CutDocument; stamp: Stamp };
/** Bounded like the page cache (docs/decisions/052-bounded-caches.md): the form pages and their answers fit. */
const MAX_DOCUMENTS = 100;
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
const documents = new BoundedCache<DocumentEntry>(MAX_DOCUMENTS, MAX_DOCUMENT_BYTES);
/** Keys are hashes of one length (43 characters): the entry bound is a bound on bytes (~0.1 MB). */
const seenOnce = new Map<string, number>();
const MAX_SEEN = 1000;

/** The key of this answer's document, or undefined when it must always be rendered. */
export function documentKey(request: Request, status: number, context: RenderedRoutes): DocumentKey | undefined {
  const method = request.method.toUpperCase();
  const { staticHandlerContext: handled } = context;
  // An error's JSON says little of what the error boundary shows: always render those.
  if (env().PAGE_CACHE === "off" || (method !== "GET" && method !== "POST") || handled.errors) return undefined;
  // A refused POST (field errors, 429, 503) shows what that visitor typed: it is never kept, even once seen twice.
  if (method === "POST" && status >= 400) return undefined;

  const leaf = handled.matches.at(-1)?.route.id;
  const handle = leaf ? (context.routeModules[leaf]?.handle as SharedNotFoundHandle | undefined) : undefined;
  const url = new URL(request.url);
  const page = pageKeyOf(url.pathname + url.search);
  if (!page) return undefined;
  const where = status === 404 && method === "GET" && handle?.notFoundDocumentIsShared ? `404 of ${leaf}` : page.key;

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
  return { key, fresh, firstSight: method === "GET", dropped: page.dropped };
}

/** The remembered document for `doc` (UTF-8), carrying this answer's nonce and fresh values; undefined when there is none. */
export function rememberedDocument(doc: DocumentKey, nonce: string): Buffer<ArrayBuffer> | undefined {
  const hit = documents.get(doc.key);
  if (!hit) return undefined;
  if (hit.doc.valueCount !== doc.fresh.length + 1) {
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
  if (!showsNoneOf(body, doc.dropped)) return; // it shows a parameter the key left out
  // Every value must be told apart and stand where the render put it (none escaped into another form).
  const cut = cutDocument(body, [nonce, ...doc.fresh], true);
  if (!cut) return;
  documents.set(doc.key, { doc: cut, stamp: stamp() }, weight(doc.key, cut));
}

/** Entries and bytes held by the two document caches (tests, the bench's soak). */
export function pageCacheSize(): { pages: number; pageBytes: number; documents: number; documentBytes: number } {
  return { pages: cache.size, pageBytes: cache.bytes, documents: documents.size, documentBytes: documents.bytes };
}

/** For tests. */
export function clearPageCache(): void {
  cache.clear();
  documents.clear();
  seenOnce.clear();
}
