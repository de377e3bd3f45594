import { randomBytes } from "node:crypto";
import { createContext, type RouterContextProvider } from "react-router";
import { cacheControl } from "~/http/cache-control";
import { cspAllowances } from "~/lib/startup.server";

/**
 * The one module that decides the security headers and the CSP nonce
 * (docs/decisions/048-security-headers.md). Others only apply what it gives:
 *  - a page (an HTML document: entry.server.tsx renders it, the page cache
 *    copies it) carries `pageSecurityHeaders(nonce)`: the headers every answer
 *    carries, and a policy that runs only the scripts with that page's nonce;
 *  - a request's nonce is `requestNonce(context)`: made on the first ask, the
 *    same for the rest of the request (the render and the page cache agree);
 *    a page copied from the page cache gets a new one;
 *  - any other answer (static files, data requests, resource routes, the
 *    server's own 400/403/405) carries `nonPageSecurityHeaders(type)`, which
 *    server/app.ts fills in just before its headers go out;
 *  - every answer to an address that carries a link's secret (app/lib/secret-paths.ts)
 *    carries `SECRET_LINK_HEADERS` too, set by server/app.ts over whatever it had.
 */

/** A fresh nonce for a page's inline and module scripts. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

const nonceContext = createContext<string>("");

/** This request's nonce: made on the first ask, then the same for the whole request. */
export function requestNonce(context: Readonly<RouterContextProvider>): string {
  let nonce = context.get(nonceContext);
  if (!nonce) {
    nonce = createNonce();
    context.set(nonceContext, nonce);
  }
  return nonce;
}

/** Content-Security-Policy for a page: scripts only with the nonce, plus the sources configured capabilities ask for. */
function pagePolicy(nonce: string): string {
  const extra = cspAllowances();
  const join = (list: string[]) => list.filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    `script-src ${join([`'nonce-${nonce}'`, "'strict-dynamic'", ...(extra.scriptSrc ?? [])])}`,
    // Mantine sets style attributes at runtime.
    `style-src ${join(["'self'", "'unsafe-inline'", ...(extra.styleSrc ?? [])])}`,
    `img-src ${join(["'self'", "data:", ...(extra.imgSrc ?? [])])}`,
    `connect-src ${join(["'self'", ...(extra.connectSrc ?? [])])}`,
    `frame-src ${join(["'self'", ...(extra.frameSrc ?? [])])}`,
    // Only when a capability asks for Web Workers (e.g. the ALTCHA captcha's blob: worker);
    // otherwise workers fall back to script-src (nonce only).
    ...(extra.workerSrc?.length ? [`worker-src ${join([...new Set(extra.workerSrc)])}`] : []),
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every answer carries, pages, data and files alike (names in lower case, as Node sends them). */
const EVERY_ANSWER: Readonly<Record<string, string>> = Object.freeze({
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(self), usb=(), interest-cohort=()",
  "cross-origin-opener-policy": "same-origin",
  // Browsers ignore HSTS over plain http (localhost), so it is safe to send always.
  "strict-transport-security": "max-age=63072000; includeSubDomains",
});

/**
 * Every security header of a page whose scripts carry `nonce`: entry.server.tsx
 * sets them on each page it renders, the page cache on each copy it answers with.
 */
export function pageSecurityHeaders(nonce: string, routeHeaders?: Headers): Record<string, string> {
  // A page that hands out a secret in its URL (a booking's manage link) asks for no Referer at all.
  const headers: Record<string, string> = { ...EVERY_ANSWER, "content-security-policy": pagePolicy(nonce) };
  if (routeHeaders?.get("referrer-policy") === "no-referrer") headers["referrer-policy"] = "no-referrer";
  return headers;
}

const withPolicy = (csp: string) => Object.freeze({ ...EVERY_ANSWER, "content-security-policy": csp });
const NOTHING_RUNS = withPolicy(
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
);
const NO_FRAMING = withPolicy("frame-ancestors 'none'");

/**
 * The security headers for a response that did not set its own: static files
 * (scripts, styles, SVG illustrations, icons, PDFs), React Router's route
 * manifest, the cross-origin 403, the server's 400/405 answers. server/app.ts
 * fills in whichever of these a response lacks just before its headers go
 * out, so nothing leaves without them (pages carry `pageSecurityHeaders`).
 * Anything opened on its own may run nothing; a PDF only forbids framing,
 * because `default-src 'none'` would block the browser's PDF viewer, an
 * embedded plugin.
 */
export function nonPageSecurityHeaders(contentType = ""): Readonly<Record<string, string>> {
  return /^\s*application\/pdf\b/i.test(contentType) ? NO_FRAMING : NOTHING_RUNS;
}

/**
 * The headers of every answer to an address that carries a link's secret (/booking/{token},
 * /order/{token}: DECISIONS 32), the page, its 404 and a refused post alike: stored nowhere, no
 * Referer for whatever it links to or loads, never indexed. server/app.ts sets them over what the
 * answer had, just before its headers go out (app/lib/secret-paths.ts says which addresses).
 */
export const SECRET_LINK_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "cache-control": cacheControl.noStore,
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
});
