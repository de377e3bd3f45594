import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import onHeaders from "on-headers";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import * as appBuild from "virtual:react-router/server-build";
import { clientIpContext, clientIpFromNode } from "~/http/client-ip.server";
import { carriesLinkSecret, loggablePath } from "~/lib/secret-paths";
import { refuseCrossOriginRequest, siteScheme } from "~/http/origin.server";
import type { Connection } from "@db/client.server";
import { closeDatabase, connect, isDatabaseClosed } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { servePageFromCache } from "~/http/page-cache.server";
import { choosesOwnColorScheme } from "~/shell/color-scheme";
import { nonPageSecurityHeaders, SECRET_LINK_HEADERS } from "~/http/security.server";
import { assertSecretsConfigured } from "~/lib/secrets.server";
import { paymentGateway } from "~/payments/gateway.server";
import { onShutdown, runShutdownHooks } from "~/lib/startup.server";
import { startServerMailWorker } from "~/mail/worker.server";
import { startServerReminderWorker } from "~/booking/reminders.server";
import {
  answerOtherMethods,
  answerPlain,
  BAD_REQUEST_MESSAGE,
  fillMissingHeaders,
  normaliseRequestTarget,
} from "./guards";
import { serve, type RunningServer } from "./http";
import { startMaintenance } from "./maintenance";

/**
 * THE server, for `npm run dev` and `npm start` alike (React Router's custom
 * server pattern). The production build is this module: it is the SSR entry
 * of `react-router build` (vite.config.ts), so build/server/index.js exports
 * `start`; in development `node server.mjs --dev` loads it through Vite's
 * `ssrLoadModule`, and every request gets the module as it is now on disk.
 *
 * A request meets, in order and before Express and React Router:
 *   1. a method other than GET, HEAD and POST: 405 (OPTIONS: 204);
 *   2. a Host or request target React Router could not turn into a URL: 400
 *      (no Host on HTTP/1.0: the site's own host is assumed);
 *   3. a state-changing request from another site: 403 (the forms' origin check);
 *   4. a page the shared page cache holds (same for every visitor): from memory.
 * A throw in any of them answers 400; nothing a client sends reaches the process.
 * Then Express: compression, the build's pre-compressed static files
 * (`/assets` immutable for a year, other files an hour), then React Router
 * with a load context that carries the client IP (CLIENT_IP_HEADER or the
 * socket's peer; Express's `trust proxy` stays off).
 *
 * Every answer, whoever wrote it, gets the security headers it lacks just
 * before its headers go out (`nonPageSecurityHeaders`: pages set their own),
 * and every answer to an address that carries a link's secret (/booking/…,
 * /order/…) gets `SECRET_LINK_HEADERS` over whatever it had.
 */

export type StartOptions =
  | {
      mode: "production";
      /** build/client: the browser build, served as static files. */
      clientDir: string;
      port?: number;
      host?: string;
    }
  | {
      mode: "development";
      /** Vite in middleware mode, with its HMR socket on `server`. */
      vite: ViteDevServer;
      server: http.Server;
      port?: number;
      host?: string;
    };

type Setup = { mode: "production"; clientDir: string } | { mode: "development"; vite: ViteDevServer };

/**
 * Just before a response's headers go out: the security headers it lacks, and for an address that
 * carries a link's secret (its target as the request arrived: Express rewrites `req.url` inside
 * mounted middleware) no-store, no-referrer and noindex, whatever the answer set.
 */
function securityHeadersHook(req: IncomingMessage, res: ServerResponse): () => void {
  return () => {
    fillMissingHeaders(res, nonPageSecurityHeaders(String(res.getHeader("content-type") ?? "")));
    const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "";
    if (carriesLinkSecret(target))
      for (const [name, value] of Object.entries(SECRET_LINK_HEADERS)) res.setHeader(name, value);
  };
}

/** The site's own host, assumed for a request without a Host header. */
let siteHostOf: { url: string; host: string } | undefined;
function siteHost(): string {
  const url = env().SITE_URL;
  if (siteHostOf?.url !== url) siteHostOf = { url, host: new URL(url).host };
  return siteHostOf.host;
}

/** Files have an extension; pages do not. Asking the disk about every page request (two failed stats each) cost 4% of an uncached page's time. */
const fileLike = /\.[A-Za-z0-9]+$/;
function onlyFiles(handler: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => (fileLike.test(req.path) ? handler(req, res, next) : next());
}

/** Serves `dir`, preferring the `.br` then `.gz` copy the client accepts (written at build time by scripts/precompress.ts). */
function precompressed(dir: string, serveStatic: { immutable?: boolean; maxAge: string }): express.RequestHandler {
  return expressStaticGzip(dir, { enableBrotli: true, orderPreference: ["br", "gz"], index: false, serveStatic });
}

/**
 * What Express passes on: a client's mistake that Express or a static
 * middleware noticed (a `status` below 500, e.g. a path that does not
 * decode) keeps its status with a short text; anything else is ours.
 */
const answerError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    log.info(
      { status, method: req.method, path: loggablePath(req.originalUrl), reason: (error as Error).message },
      "request refused",
    );
    answerPlain(res, status, BAD_REQUEST_MESSAGE);
    return;
  }
  log.error({ err: error, method: req.method, path: loggablePath(req.originalUrl) }, "request failed in the server");
  answerPlain(res, 500, "Something went wrong on our side. Please try again.");
};

function createExpressApp(setup: Setup): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // `trust proxy` stays off (Express's default): nothing reads X-Forwarded-*
  // as the client's address or protocol. The client IP has one configured
  // source (app/http/client-ip.server.ts); the scheme is the site's
  // (SITE_URL): behind fly's proxy TLS ends before this server, and React
  // Router's own check of an action's Origin compares whole origins, so an
  // "http" request URL would refuse every browser's https post with a 400.
  const scheme = siteScheme();
  Object.defineProperty(app.request, "protocol", { configurable: true, enumerable: true, get: () => scheme });
  app.use(compression()); // pages and anything without a pre-compressed copy
  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (setup.mode === "production") {
    app.use("/assets", precompressed(path.join(setup.clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    app.use(onlyFiles(precompressed(setup.clientDir, { maxAge: "1h" })));
    app.use(onlyFiles(express.static("public", { maxAge: "1h" })));
    build = appBuild;
  } else {
    // Vite serves the app's modules, public/ and its client; React Router's
    // build is asked of Vite on every request, so an edit shows at once.
    const { vite } = setup;
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: setup.mode,
      getLoadContext(req) {
        // v8_middleware: the load context is a RouterContextProvider, made per request.
        const context = new RouterContextProvider();
        context.set(clientIpContext, clientIpFromNode(req, env().CLIENT_IP_HEADER));
        return context;
      },
    }),
  );
  app.use(answerError);
  return app;
}

let expressApp: { setup: Setup; app: express.Express } | undefined;

/** Handles one request: the guards above, then Express and React Router. */
export function handleRequest(req: IncomingMessage, res: ServerResponse, setup: Setup): void {
  onHeaders(res, securityHeadersHook(req, res));
  try {
    if (answerOtherMethods(req, res)) return;
    const refused = normaliseRequestTarget(req, siteHost());
    if (refused) {
      answerPlain(res, 400, refused);
      return;
    }
    if (refuseCrossOriginRequest(req, res)) return;
    if (servePageFromCache(req, res, choosesOwnColorScheme)) return;
  } catch (error) {
    // A guard that throws was given something it did not expect: the client's doing.
    log.warn({ err: error, method: req.method }, "request refused by a guard that threw");
    answerPlain(res, 400, BAD_REQUEST_MESSAGE);
    return;
  }
  if (expressApp?.setup !== setup) expressApp = { setup, app: createExpressApp(setup) };
  expressApp.app(req, res);
}

/** How long after the database opens the background work starts: the first pages are served first. */
const BACKGROUND_START_DELAY_MS = 1_000;

/** The mail and reminder workers and the housekeeping, on the open database. */
function startBackgroundWork(conn: Connection): void {
  // The workers' own start-up failures are logged and retried there.
  void startServerMailWorker(conn).catch(() => {});
  void startServerReminderWorker(conn).catch(() => {});
  const maintenance = startMaintenance(conn.db);
  onShutdown(() => maintenance.stop());
}

/**
 * Starts the server: checks the configuration (a bad value stops here, with
 * its name) and the secrets (production on DATABASE_URL without them, or a
 * secrets file that cannot be used, stops here too), opens the database and
 * starts the mail and booking-reminder workers and the housekeeping, listens, and owns the one ordered shutdown: on
 * SIGTERM or SIGINT stop accepting, let requests in flight finish (10 s at
 * most), stop background work, close the database, exit 0.
 */
export function start(options: StartOptions): RunningServer {
  let config;
  try {
    config = env();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // Before anything opens or listens: a key missing or unreadable now would
  // otherwise fail some visitor's request later (or, regenerated, make every
  // stored SSN undecryptable).
  try {
    assertSecretsConfigured();
    // The card gateway too (/pay-invoice): a missing or half-set gateway stops
    // the server here rather than failing every payment later.
    paymentGateway();
  } catch (error) {
    log.fatal({ err: error }, "refusing to start");
    process.exit(1);
  }
  const port = options.port ?? config.PORT;
  // Open the database (migrations, seed) before the first request needs it. The
  // background work on it (the mail worker, the booking-reminder worker, each
  // registering its own stop with the shutdown, and the housekeeping) starts a
  // moment later, so that the first visitor's page never waits behind it (issue 39).
  // A database that is down at start is tried again every few seconds; /healthz
  // answers 503 until it opens.
  const open = () => {
    connect().then(
      (conn) => {
        const later = setTimeout(() => startBackgroundWork(conn), BACKGROUND_START_DELAY_MS);
        onShutdown(async () => clearTimeout(later));
      },
      () => {
        if (!isDatabaseClosed()) setTimeout(open, 2_000).unref();
      },
    );
  };
  open();

  let listener: (req: IncomingMessage, res: ServerResponse) => unknown;
  if (options.mode === "production") {
    const setup: Setup = { mode: "production", clientDir: options.clientDir };
    listener = (req, res) => handleRequest(req, res, setup);
  } else {
    const { vite } = options;
    const setup: Setup = { mode: "development", vite };
    listener = async (req, res) => {
      // The module as it is now: an edit to the server or the guards shows without a restart.
      const current = (await vite.ssrLoadModule("/server/app.ts")) as typeof import("./app");
      current.handleRequest(req, res, setup);
    };
  }

  const running = serve({
    listener,
    port,
    host: options.host,
    server: options.mode === "development" ? options.server : undefined,
    rawAnswerHeaders: nonPageSecurityHeaders(),
    onClosing: options.mode === "development" ? () => options.vite.ws.close() : undefined,
    shutdownSteps: [
      { name: "background work", run: () => runShutdownHooks() },
      { name: "database", run: () => closeDatabase() },
      ...(options.mode === "development" ? [{ name: "vite", run: () => options.vite.close() }] : []),
    ],
    log,
  });
  void running.listening.then(() => log.info({ port, mode: options.mode }, `listening on http://localhost:${port}`));
  return running;
}
