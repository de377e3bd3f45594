import { openDatabase, type Connection, type Database } from "@db/client.server";
import { env } from "./env.server";
import { log } from "./log.server";

/**
 * The server's one database connection, opened when the server starts
 * (server/app.ts calls `connect()` before it listens: PGlite takes a few
 * seconds to start; no request should pay for it). Migrations and the seed run
 * before the first query is answered. The server also closes it, last in its
 * one ordered shutdown (`closeDatabase`); this module installs no signal
 * handler of its own.
 */
type DbState = { connection?: Promise<Connection>; closed: boolean };
/**
 * Kept on globalThis, not in this module: in development Vite evaluates this
 * module again when it (or something it imports) is edited, and a second
 * copy opening PGlite on the same folder would corrupt it. Every copy shares
 * the one connection. (Under vitest each test file keeps its own: every file
 * runs in a process of its own, vitest.config.ts's isolated `forks` pool.)
 */
const state: DbState = ((globalThis as { [key: symbol]: DbState | undefined })[Symbol.for("dover-doors.db")] ??= {
  closed: false,
});

const REOPEN_AFTER_MS = 1_000;

export function connect(): Promise<Connection> {
  if (state.closed) return Promise.reject(new Error("the database is closed: the server is shutting down"));
  let connection = state.connection;
  if (!connection) {
    const e = env();
    const opening = performance.now();
    log.debug({ uptimeMs: Math.round(process.uptime() * 1000) }, "opening the database");
    connection = openDatabase({
      databaseUrl: e.DATABASE_URL,
      dataDir: e.DATA_DIR,
      socketPort: e.DB_SOCKET_PORT,
      seed: true,
      warn: (msg) => log.warn(msg),
      onPhase: (phase, ms) => log.debug({ phase, ms }, "database start-up step"),
    }).then((c) => {
      log.info(
        { kind: c.kind, socket: c.socketUrl, ms: Math.round(performance.now() - opening) },
        c.kind === "pglite" ? "embedded database ready" : "database ready",
      );
      return c;
    });
    const failed = connection;
    failed.catch((error) => {
      log.error({ err: error }, "database failed to open");
      // Not for good: a server started while the database was down opens it
      // once it is back. Requests in the next moment share this failure
      // (answered 503) rather than each starting an attempt of its own.
      setTimeout(() => {
        if (state.connection === failed) state.connection = undefined;
      }, REOPEN_AFTER_MS).unref();
    });
    state.connection = connection;
  }
  return connection;
}

/** True once the server's shutdown closed the database (nothing reopens it). */
export function isDatabaseClosed(): boolean {
  return state.closed;
}

export async function getDb(): Promise<Database> {
  return (await connect()).db;
}

/** Whether the database answers now (/healthz): false while it is away or not yet open. */
export async function databaseAnswers(): Promise<boolean> {
  try {
    return await (await connect()).ping();
  } catch {
    return false;
  }
}

/**
 * Closes the connection (PGlite flushes its folder; postgres-js ends its pool)
 * and refuses new ones. Called once, by the server's shutdown, after requests
 * in flight and background work have finished.
 */
export async function closeDatabase(): Promise<void> {
  state.closed = true;
  const opening = state.connection;
  state.connection = undefined;
  if (!opening) return;
  let conn: Connection;
  try {
    conn = await opening;
  } catch {
    return; // it never opened: nothing to close
  }
  await conn.close();
  log.info("database closed");
}
