import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { cacheControl } from "~/http/cache-control";
import { loggablePath } from "~/lib/secret-paths";

/**
 * The HTTP listener's life: what it does with connections the parser refuses,
 * with a throw in a request's handling, and the one ordered shutdown. Nothing
 * here knows the app; server/app.ts hands in the request listener and the
 * steps to run once requests in flight are done.
 */

type Logger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
};

export type ShutdownStep = { name: string; run: () => Promise<void> };

export type ServeOptions = {
  /** Handles one request; may be async. A throw or rejection answers 500 and is logged. */
  listener: (req: IncomingMessage, res: ServerResponse) => unknown;
  port: number;
  host?: string;
  /** A server made beforehand (development: Vite's HMR socket shares it); otherwise one is made. */
  server?: http.Server;
  /** Headers for the answers written straight to a socket (the parser's 400/408/431). */
  rawAnswerHeaders?: Readonly<Record<string, string>>;
  /** Run as soon as the listener stops (development: Vite's HMR sockets, which would hold the server open). */
  onClosing?: () => Promise<void>;
  /** After the listener has stopped and requests in flight have finished: in this order. */
  shutdownSteps: ShutdownStep[];
  /** How long requests in flight may take to finish after a SIGTERM. */
  drainMs?: number;
  log: Logger;
  /** Ends the process (tests replace it). */
  exit?: (code: number) => void;
};

export type RunningServer = {
  server: http.Server;
  /** Resolves once the server listens. */
  listening: Promise<void>;
  /** Begins the ordered shutdown (what SIGTERM and SIGINT do); resolves when it is complete, before exit. */
  shutdown(reason: string, code?: number): Promise<void>;
};

/** An answer written to a socket that has no request object (the parser gave up on it). */
function rawAnswer(status: number, headers: Readonly<Record<string, string>>): string {
  const body =
    status === 431
      ? "Request headers too large."
      : status === 408
        ? "Request timed out."
        : status === 405
          ? "This address answers GET, HEAD and POST only."
          : "Bad request.";
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    "Connection: close",
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Cache-Control: ${cacheControl.noStore}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/** Node's http parser's error codes for what a client did wrong, and the status each deserves. */
function statusForClientError(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "HPE_HEADER_TIMEOUT" || code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

/**
 * Connections closing in stages. Node's parser still reads them: a request that arrives on one
 * (a client that had not heard of the close) is not run, its connection is closed at once.
 */
const lingering = new WeakSet<Socket>();

/** How long a closing connection keeps reading what its client still sends (see lingerOnClose). */
const LINGER_MS = 5_000;

/**
 * Closes a connection in stages (RFC 9112 §9.6, "the TCP reset problem"). Node closes a
 * connection as soon as its last answer is written (a request with `Connection: close`, HTTP/1.0),
 * even while the client is still sending a body we answered early, a 413 for one: the data
 * arriving after the close makes the kernel reset the connection, and the reset can erase our
 * answer before the client has read it (the end-to-end hostile test lost it about one time in
 * twenty). So the answer goes, then our FIN, and the connection reads on (what the client still
 * sends goes to the request it belongs to, which is drained or dumped) until the client closes
 * its side, for LINGER_MS at most. Node calls `destroySoon` for exactly that close.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    lingering.add(this);
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.once("end", () => this.destroy());
  };
}

/**
 * Serves `options.listener` on the port: the server is set up, its events handled, it listens,
 * and SIGTERM, SIGINT and an uncaught exception begin the one ordered shutdown.
 */
export function serve(options: ServeOptions): RunningServer {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const server = options.server ?? http.createServer();
  prepareServer(server);
  const state: ServerState = { closing: false, inFlight: new Set<ServerResponse>() };
  server.on("request", requestHandler(server, state, options));
  // What Node's parser refuses (a malformed request line or header, headers
  // over 16 KB, a request too slow to arrive) never reaches the listener: it
  // is answered here, on the socket, and the socket is closed.
  server.on("clientError", clientErrorHandler(options));
  // CONNECT (a proxy tunnel) is no request for this site: Node would drop
  // the connection without a word; it gets the 405 other methods get.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    socket.end(rawAnswer(405, { Allow: "GET, HEAD, POST", ...options.rawAnswerHeaders }));
  });
  const listening = listen(server, options, exit);
  const shutdown = orderedShutdown(server, state, options, exit);
  shutDownOnSignals(state, shutdown, options.log);
  handleProcessFailures(shutdown, options.log);
  return { server, listening, shutdown };
}

/** What the request handler and the shutdown share. */
type ServerState = {
  /** Set when the shutdown begins: answers from then on close their connection. */
  closing: boolean;
  /** The responses not yet closed. */
  inFlight: Set<ServerResponse>;
  /** The shutdown, once begun (it runs once). */
  shuttingDown?: Promise<void>;
};

/** Sets what Node does with hosts, idle connections and closing connections. */
function prepareServer(server: http.Server): void {
  // Node answers an HTTP/1.1 request without Host with a bare 400 of its own;
  // the guards (server/guards.ts) give that answer instead, with the security
  // headers every answer carries. (Read by Node per request.)
  (server as http.Server & { requireHostHeader: boolean }).requireHostHeader = false;
  // Longer than fly's proxy keeps an idle connection (60 s), so the proxy, not
  // this server, closes it: otherwise a request can race the close and fail.
  server.keepAliveTimeout = 65_000;
  server.on("connection", lingerOnClose);
}

/**
 * Hands each request to the app's listener, keeping count of the answers in flight; a request on a
 * closing connection is not run, and a throw or rejection from the listener is answered 500.
 */
function requestHandler(
  server: http.Server,
  state: ServerState,
  options: ServeOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { log } = options;
  return (req, res) => {
    if (lingering.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    state.inFlight.add(res);
    // A write after the end, or to a connection already gone, is reported on
    // the response; with no listener it would be an uncaught exception.
    res.on("error", (error) =>
      log.warn({ err: error, method: req.method, path: loggablePath(req.url) }, "response error"),
    );
    res.once("close", () => {
      state.inFlight.delete(res);
      // During the shutdown a connection whose last answer has gone is closed
      // at once rather than kept alive for a request that would find no one
      // (once Node has marked it idle, just after this event).
      if (state.closing) setImmediate(() => server.closeIdleConnections());
    });
    // Answers begun after the SIGTERM tell the client not to reuse the connection.
    if (state.closing) res.setHeader("Connection", "close");
    let pending: unknown;
    try {
      pending = options.listener(req, res);
    } catch (error) {
      failed(log, error, req, res);
      return;
    }
    if (pending instanceof Promise) pending.catch((error: unknown) => failed(log, error, req, res));
  };
}

/** A throw from the app's handling: logged, answered 500 (our fault), never the process's end. */
function failed(log: Logger, error: unknown, req: IncomingMessage, res: ServerResponse) {
  log.error(
    { err: error, method: req.method, path: loggablePath(req.url) },
    "request failed outside the app's handlers",
  );
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = "Something went wrong on our side. Please try again.";
  try {
    res.writeHead(500, {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": cacheControl.noStore,
    });
    res.end(body);
  } catch {
    res.destroy(); // the response was left in a state that cannot take an answer
  }
}

/** Answers what Node's parser refused on the socket itself, after any answer still going out on it. */
function clientErrorHandler(options: ServeOptions): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = rawAnswer(statusForClientError(error.code), options.rawAnswerHeaders ?? {});
    const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (current && !current.writableFinished && current.req.complete) {
      // A pipelined request that breaks behind one that arrived whole and is
      // still being answered: that answer goes out first, then this one.
      current.once("finish", () => socket.end(answer));
    } else if (current?.headersSent) {
      socket.destroy(); // the broken request's own answer has begun: nothing more can be said
    } else {
      socket.end(answer); // a broken request line, header or body: the app's answer (if any) is moot
    }
  };
}

/** Starts listening; resolves once the server listens. A server that cannot listen ends the process. */
function listen(server: http.Server, options: ServeOptions, exit: (code: number) => void): Promise<void> {
  const listening = new Promise<void>((resolve) => {
    server.once("listening", resolve);
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    // Only the listening socket reports here (a busy port, a port not allowed): the server cannot run.
    options.log.fatal({ err: error, port: options.port }, "the server cannot listen");
    exit(1);
  });
  server.listen(options.port, options.host);
  return listening;
}

/**
 * The ordered shutdown, run once however often it is asked for: stop accepting, let requests in
 * flight finish (for drainMs at most), run the app's steps in order, then exit (1 if a step failed).
 */
function orderedShutdown(
  server: http.Server,
  state: ServerState,
  options: ServeOptions,
  exit: (code: number) => void,
): RunningServer["shutdown"] {
  const { log } = options;
  const drainMs = options.drainMs ?? 10_000;
  return function shutdown(reason: string, code = 0): Promise<void> {
    state.shuttingDown ??= (async () => {
      state.closing = true;
      log.info(
        { reason, inFlight: state.inFlight.size },
        "shutting down: no new connections; requests in flight may finish",
      );
      const drained = stopAccepting(server, state);
      await options.onClosing?.().catch((error: unknown) => log.error({ err: error }, "shutdown: closing step failed"));
      await drainRequests(server, state, drained, drainMs, log);
      const failedSteps = await runShutdownSteps(options.shutdownSteps, log);
      log.info({ reason }, "shut down");
      exit(failedSteps > 0 && code === 0 ? 1 : code);
    })();
    return state.shuttingDown;
  };
}

/**
 * 1. Stop accepting: the listening socket closes (a new connection is refused); idle keep-alive
 * connections close now, busy ones once their answer is out. Resolves once all are closed.
 */
function stopAccepting(server: http.Server, state: ServerState): Promise<void> {
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  for (const res of state.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  return drained;
}

/** 2. Let requests in flight finish, for at most drainMs; then the connections still open are closed. */
async function drainRequests(
  server: http.Server,
  state: ServerState,
  drained: Promise<void>,
  drainMs: number,
  log: Logger,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([
    drained.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), drainMs);
    }),
  ]);
  clearTimeout(timer);
  if (late) {
    log.warn(
      { unfinished: state.inFlight.size, drainMs },
      "requests still in flight at the deadline: their connections are closed",
    );
    server.closeAllConnections();
  }
}

/** 3. Then, in order, what the app asked for (background work, then the database); resolves to how many failed. */
async function runShutdownSteps(steps: ShutdownStep[], log: Logger): Promise<number> {
  let failedSteps = 0;
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      failedSteps += 1;
      log.error({ err: error, step: step.name }, "shutdown step failed");
    }
  }
  return failedSteps;
}

/** SIGTERM and SIGINT begin the shutdown. */
function shutDownOnSignals(state: ServerState, shutdown: RunningServer["shutdown"], log: Logger): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // A repeated signal changes nothing: a wrapper (npm start, the e2e
    // server) forwards the terminal's Ctrl+C that this process also got, and
    // cutting the drain short for it would cut the requests it protects.
    process.on(signal, () => {
      if (state.shuttingDown) log.info({ signal }, "already shutting down");
      else void shutdown(signal);
    });
  }
}

/**
 * Last resort: a rejection nobody handled is logged, not fatal (Node's default would end the
 * process and every request in flight with it). An uncaught exception leaves the process in an
 * unknown state: it is logged and the same ordered shutdown runs (exit 1), so answers in flight finish.
 */
function handleProcessFailures(shutdown: RunningServer["shutdown"], log: Logger): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection");
  });
  process.on("uncaughtException", (error) => {
    log.fatal({ err: error }, "uncaught exception: shutting down");
    void shutdown("uncaughtException", 1);
  });
}
