import { randomBytes } from "node:crypto";

/** A fresh nonce for each document's inline and module scripts. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export type CspAllowances = { scriptSrc?: string[]; connectSrc?: string[]; imgSrc?: string[]; frameSrc?: string[]; styleSrc?: string[]; workerSrc?: string[] };

/** Content-Security-Policy for a document: scripts only with the nonce. */
export function contentSecurityPolicy(nonce: string, extra: CspAllowances = {}): string {
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

/** Headers every response carries, documents, data and resource routes alike. */
export function applySecurityHeaders(headers: Headers): void {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set(
    "Permissions-Policy",
    "camera=(), microphone=(), geolocation=(), payment=(self), usb=(), interest-cohort=()",
  );
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  // Browsers ignore HSTS over plain http (localhost), so it is safe to send always.
  headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
}

function withPolicy(csp: string): Readonly<Record<string, string>> {
  const headers = new Headers();
  applySecurityHeaders(headers);
  headers.set("Content-Security-Policy", csp);
  return Object.freeze(Object.fromEntries(headers));
}
const NOTHING_RUNS = withPolicy("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'");
const NO_FRAMING = withPolicy("frame-ancestors 'none'");

/**
 * The security headers for a response that did not set its own: static files
 * (scripts, styles, SVG illustrations, icons, PDFs), React Router's route
 * manifest, the cross-origin 403, the server's 400/405 answers. server/app.ts
 * fills in whichever of these a response lacks just before its headers go
 * out, so nothing leaves without them. (Pages are not among them: every
 * document gets its nonce policy in entry.server.tsx.) Anything opened on its
 * own may run nothing; a PDF only forbids framing, because `default-src
 * 'none'` would block the browser's PDF viewer, an embedded plugin.
 */
export function nonPageSecurityHeaders(contentType = ""): Readonly<Record<string, string>> {
  return /^\s*application\/pdf\b/i.test(contentType) ? NO_FRAMING : NOTHING_RUNS;
}
