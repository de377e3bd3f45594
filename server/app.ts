import http, { type IncomingMessage, type ServerResponse } from "node:http";
import compression from "compression";
import onHeaders from "on-headers";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import sirv from "sirv";
import type { ViteDevServer } from "vite";
import { clientIpContext, clientIpFromNode } from "~/http/client-ip.server";
import { isPrivatePage, loggablePath } from "~/lib/secret-paths";
import { refuseCrossOriginRequest, siteScheme } from "~/http/origin.server";
import type { Connection } from "@db/client.server";
import { closeDatabase, connect, isDatabaseClosed } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { servePageFromCache } from "~/http/page-cache.server";
import { choosesOwnColorScheme } from "~/shell/color-scheme";
import { sendsCartCookie } from "~/shop/cart-schema";
import { nonPageSecurityHeaders, SECRET_LINK_HEADERS } from "~/http/security.server";
import { assertSecretsConfigured } from "~/lib/secrets.server";
import { paymentGateway } from "~/payments/gateway.server";
import { onShutdown, runShutdownHooks } from "~/lib/startup.server";
import {
  answerOtherMethods,
  answerPlain,
  BAD_REQUEST_MESSAGE,
  fillMissingHeaders,
  normaliseRequestTarget,
} from "./guards";
import { serve, type RunningServer } from "./http";
import { runSteps, sendFetchResponse, toFetchRequest, type Step } from "./node-adapter";

/**
 * THE server, for `npm run dev` and `npm start` alike (React Router's custom
 * server pattern). The production build is this module: it is the SSR entry
 * of `react-router build` (vite.config.ts), so build/server/index.js exports
 * `start`; in development `node server.mjs --dev` loads it through Vite's
 * `ssrLoadModule`, and every request gets the module as it is now on disk.
 *
 * A request meets, in order and before React Router:
 *   1. a method other than GET, HEAD and POST: 405 (OPTIONS: 204);
 *   2. a Host or request target React Router could not turn into a URL: 400
 *      (no Host on HTTP/1.0: the site's own host is assumed);
 *   3. a state-changing request from another site: 403 (the forms' origin check);
 *   4. a page the shared page cache holds (same for every visitor): from memory.
 * A throw in any of them answers 400; nothing a client sends reaches the process.
 * Then compression, the build's pre-compressed static files (`/assets`
 * immutable for a year, other files an hour), then React Router with a load
 * context that carries the client IP (CLIENT_IP_HEADER or the socket's peer;
 * no X-Forwarded-* header is read): `createSiteHandler`.
 *
 * Every answer, whoever wrote it, gets the security headers it lacks just
 * before its headers go out (`nonPageSecurityHeaders`: pages set their own),
 * and every answer to one visitor's private page (a secret link, /booking/…,
 * /order/…, or a signed receipt) gets `SECRET_LINK_HEADERS` over whatever it had.
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
 * carries a link's secret (its target as the request arrived: Vite's middlewares may rewrite
 * `req.url` in development) no-store, no-referrer and noindex, whatever the answer set.
 */
function securityHeadersHook(req: IncomingMessage, res: ServerResponse): () => void {
  return () => {
    fillMissingHeaders(res, nonPageSecurityHeaders(String(res.getHeader("content-type") ?? "")));
    const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "";
    if (isPrivatePage(target))
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

/**
 * The build's files (pre-compressed `.br` and `.gz` copies preferred where the client takes them,
 * written at build time by scripts/precompress.ts), `/assets` immutable for a year, the rest an
 * hour; then public/ (an hour). sirv indexes each folder once, when the site's handler is made, so
 * a page's address costs no disk access.
 */
function staticFiles(clientDir: string): Step[] {
  const year = 365 * 24 * 60 * 60;
  const common = { dev: false, etag: true, extensions: [] as string[], maxAge: 60 * 60 };
  return [
    plainRangesOnly,
    sirv(clientDir, {
      ...common,
      brotli: true,
      gzip: true,
      setHeaders(res, pathname) {
        iconType(res, pathname);
        if (pathname.startsWith("/assets/")) res.setHeader("Cache-Control", `public, max-age=${year}, immutable`);
      },
    }),
    sirv("public", { ...common, setHeaders: iconType }),
  ];
}

/** sirv's types (mrmime) know no .ico: the favicon would go out with an empty Content-Type. */
function iconType(res: ServerResponse, pathname: string): void {
  if (pathname.endsWith(".ico")) res.setHeader("Content-Type", "image/x-icon");
}

/**
 * sirv reads a Range as `bytes=start-end` and nothing else: a suffix (`bytes=-500`) would be sent
 * from the file's start, and an end before its start makes its file stream throw. Any Range but a
 * single `start-` or `start-end` with end ≥ start is ignored (RFC 9110 §14.2 allows it): the whole
 * file, 200.
 */
const plainRangesOnly: Step = (req, _res, next) => {
  const range = req.headers.range;
  if (range !== undefined) {
    const parts = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(range);
    if (!parts || (parts[2] !== "" && Number(parts[2]) < Number(parts[1]))) delete req.headers.range;
  }
  next();
};

/**
 * The answer when something failed below the guards: a client's mistake that a step noticed (an
 * error with a `status` below 500) keeps its status with a short text; anything else is ours. A
 * response already under way is cut off: its client sees a broken answer, not a wrong one.
 */
function answerError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const path = loggablePath(req.url ?? "");
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500 && !res.headersSent) {
    log.info({ status, method: req.method, path, reason: (error as Error).message }, "request refused");
    answerPlain(res, status, BAD_REQUEST_MESSAGE);
    return;
  }
  log.error({ err: error, method: req.method, path }, "request failed in the server");
  if (res.headersSent) res.destroy();
  else answerPlain(res, 500, "Something went wrong on our side. Please try again.");
}

/** compression's types are Express's; it reads and writes only what Node's request and response have. */
const compressionStep = compression() as unknown as Step;

type SiteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The site's routes as React Router builds them, every route module with all it imports: most of
 * the server's code. Loaded once the server listens, while the database opens, not before
 * (issue 39; docs/decisions/076-start-without-express.md): a request that comes sooner waits for it.
 */
let routes: Promise<ServerBuild> | undefined;
function loadRoutes(): Promise<ServerBuild> {
  if (!routes) {
    const loading = performance.now();
    routes = import("virtual:react-router/server-build");
    routes.then(
      () =>
        log.debug(
          { ms: Math.round(performance.now() - loading), uptimeMs: Math.round(process.uptime() * 1000) },
          "routes loaded",
        ),
      () => {}, // each request that waits for them answers 500 and logs why (handleRequest)
    );
  }
  return routes;
}

/**
 * What answers below the guards: compression (pages and anything without a pre-compressed copy),
 * the static files (in development Vite's middlewares: the app's modules, public/ and its client),
 * then React Router with a load context that carries the client IP (CLIENT_IP_HEADER or the
 * socket's peer; no X-Forwarded-* header is read). The request's scheme is the site's (SITE_URL):
 * behind fly's proxy TLS ends before this server, and React Router's check of an action's Origin
 * compares whole origins, so an "http" request URL would refuse every browser's https post.
 */
function createSiteHandler(setup: Setup, routesBuild: ServerBuild | undefined): SiteHandler {
  const scheme = siteScheme();
  let steps: Step[];
  let answer: (request: Request, context: RouterContextProvider) => Promise<Response>;
  if (setup.mode === "production") {
    steps = [compressionStep, ...staticFiles(setup.clientDir)];
    answer = createRequestHandler(routesBuild!, setup.mode);
  } else {
    // React Router's build is asked of Vite on every request, so an edit shows at once.
    const { vite } = setup;
    steps = [compressionStep, vite.middlewares as Step];
    answer = async (request, context) =>
      createRequestHandler((await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild, setup.mode)(
        request,
        context,
      );
  }
  return (req, res) => {
    const fail = (error: unknown) => answerError(req, res, error);
    runSteps(
      steps,
      req,
      res,
      () => {
        // v8_middleware: the load context is a RouterContextProvider, made per request.
        const context = new RouterContextProvider();
        context.set(clientIpContext, clientIpFromNode(req, env().CLIENT_IP_HEADER));
        answer(toFetchRequest(req, res, scheme), context)
          .then((response) => sendFetchResponse(res, response))
          .catch(fail);
      },
      fail,
    );
  };
}

let siteHandler: { setup: Setup; handler: Promise<SiteHandler> } | undefined;

/** The handler below the guards, made once per setup (the routes loaded first in production). */
function handlerFor(setup: Setup): Promise<SiteHandler> {
  if (siteHandler?.setup !== setup) {
    const handler =
      setup.mode === "production"
        ? loadRoutes().then((build) => createSiteHandler(setup, build))
        : Promise.resolve(createSiteHandler(setup, undefined));
    siteHandler = { setup, handler };
  }
  return siteHandler.handler;
}

/** Handles one request: the guards above, then the site's handler (`createSiteHandler`). */
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
    if (servePageFromCache(req, res, { ownPage: choosesOwnColorScheme, hasCart: sendsCartCookie })) return;
  } catch (error) {
    // A guard that throws was given something it did not expect: the client's doing.
    log.warn({ err: error, method: req.method }, "request refused by a guard that threw");
    answerPlain(res, 400, BAD_REQUEST_MESSAGE);
    return;
  }
  handlerFor(setup).then(
    (handler) => handler(req, res),
    (error: unknown) => {
      log.error({ err: error }, "the site's routes could not be loaded");
      answerPlain(res, 500, "Something went wrong on our side. Please try again.");
    },
  );
}

/** How long after the database opens the background work starts: the first pages are served first. */
const BACKGROUND_START_DELAY_MS = 1_000;

/** The mail and reminder workers and the housekeeping, on the open database (their code loaded now, not at start). */
async function startBackgroundWork(conn: Connection): Promise<void> {
  const [{ startServerMailWorker }, { startServerReminderWorker }, { startMaintenance }] = await Promise.all([
    import("~/mail/worker.server"),
    import("~/booking/reminders.server"),
    import("./maintenance"),
  ]);
  if (isDatabaseClosed()) return; // the server began its shutdown meanwhile
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
        const later = setTimeout(() => {
          startBackgroundWork(conn).catch((error: unknown) =>
            log.error({ err: error }, "background work did not start"),
          );
        }, BACKGROUND_START_DELAY_MS);
        onShutdown(async () => clearTimeout(later));
      },
      () => {
        if (!isDatabaseClosed()) setTimeout(open, 2_000).unref();
      },
    );
  };
  open();

  let listener: (req: IncomingMessage, res: ServerResponse) => unknown;
  let prepare = () => {};
  if (options.mode === "production") {
    const setup: Setup = { mode: "production", clientDir: options.clientDir };
    listener = (req, res) => handleRequest(req, res, setup);
    // The routes load while the database opens; the first request (or health check) may come before.
    prepare = () => void handlerFor(setup).catch(() => {});
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
  prepare();
  return running;
}
