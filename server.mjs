#!/usr/bin/env node
// The production server: what react-router-serve does (compression, hashed
// assets cached for a year, public files for an hour, the React Router
// handler), with the build's pre-compressed copies (Brotli or gzip, written by
// scripts/precompress.ts) served instead of compressing per request, security
// headers on every response, and three answers given before Express and React
// Router are involved: a method other than GET, HEAD and POST gets 405 (204
// for OPTIONS), a state-changing request from another site gets 403 (the
// forms' origin check), and a page that the app's shared page cache already
// holds (content pages, the same for every visitor) is answered from memory.
//   node server.mjs [build/server/index.js]
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Before React loads (through the imports below): its build follows NODE_ENV.
process.env.NODE_ENV ??= "production";
const { default: compression } = await import("compression");
const { default: express } = await import("express");
const { default: expressStaticGzip } = await import("express-static-gzip");
const { default: onHeaders } = await import("on-headers");
const { createRequestHandler } = await import("@react-router/express");
const buildPath = path.resolve(process.argv[2] ?? `${process.env.BUILD_DIR ?? "build"}/server/index.js`);
const build = await import(pathToFileURL(buildPath).href);
const clientDir = path.join(path.dirname(buildPath), "..", "client");
const port = Number(process.env.PORT ?? 3000);

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", true);
app.use(compression()); // pages and anything without a pre-compressed copy

/** Serves `dir`, preferring the `.br` then `.gz` copy the client accepts. */
const precompressed = (dir, serveStatic) =>
  expressStaticGzip(dir, { enableBrotli: true, orderPreference: ["br", "gz"], index: false, serveStatic });

app.use("/assets", precompressed(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
// Files have an extension; pages do not. Asking the disk about every page
// request (two failed stats each) cost 4% of an uncached page's time.
const fileLike = /\.[A-Za-z0-9]+$/;
const onlyFiles = (handler) => (req, res, next) => (fileLike.test(req.path) ? handler(req, res, next) : next());
app.use(onlyFiles(precompressed(clientDir, { maxAge: "1h" })));
app.use(onlyFiles(express.static("public", { maxAge: "1h" })));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

/**
 * Pages get their security headers from the root middleware. Everything else
 * (static files, React Router's route manifest, the answers below, Express's
 * own 400 for a malformed address) gets whichever of them it lacks just
 * before its headers go out.
 * @type {(contentType?: string) => Readonly<Record<string, string>>}
 */
const securityHeaders = build.entry.module.nonPageSecurityHeaders ?? (() => ({}));
/** @this {http.ServerResponse} */
function fillSecurityHeaders() {
  for (const [name, value] of Object.entries(securityHeaders(String(this.getHeader("content-type") ?? "")))) {
    if (!this.hasHeader(name)) this.setHeader(name, value);
  }
}

/**
 * The site answers GET, HEAD and POST (pages, forms, /api/store/*). React
 * Router logs an error for any other method and fails with a 500 on TRACE, so
 * they are answered here: OPTIONS with what is allowed, the rest with 405.
 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
 */
function answerOtherMethods(req, res) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return false;
  const body = req.method === "OPTIONS" ? "" : "This address answers GET, HEAD and POST only.";
  res.writeHead(body ? 405 : 204, {
    Allow: "GET, HEAD, POST",
    "Cache-Control": "no-store",
    ...(body ? { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body) } : {}),
  });
  res.end(body);
  return true;
}

/** @typedef {(req: http.IncomingMessage, res: http.ServerResponse) => boolean} Answer */
/** @type {Answer} */
const refuseCrossOrigin = build.entry.module.refuseCrossOriginRequest ?? (() => false);
/** @type {Answer} */
const fromCache = build.entry.module.servePageFromCache ?? (() => false);
const server = http.createServer((req, res) => {
  onHeaders(res, fillSecurityHeaders);
  if (answerOtherMethods(req, res) || refuseCrossOrigin(req, res) || fromCache(req, res)) return;
  app(req, res);
});
server.keepAliveTimeout = 65_000; // longer than fly's proxy idle timeout
server.listen(port, process.env.HOST, () => {
  console.log(`[server] http://localhost:${port}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close());
