import { openDatabase, type Connection, type Database } from "@db/client.server";
import { env } from "./env.server";
import { log } from "./log.server";
import { runShutdownHooks } from "./startup.server";

/**
 * The server's one database connection, opened when this module loads (PGlite
 * takes a few seconds to start; no request should pay for it). Migrations and
 * the seed run before the first query is answered.
 */
let connection: Promise<Connection> | undefined;

export function connect(): Promise<Connection> {
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
    connection.catch((error) => log.error({ err: error }, "database failed to open"));
    installShutdown();
  }
  return connection;
}

export async function getDb(): Promise<Database> {
  return (await connect()).db;
}

let shutdownInstalled = false;
function installShutdown() {
  if (shutdownInstalled || process.env.VITEST) return;
  shutdownInstalled = true;
  // The HTTP listener closes on SIGTERM while a database client is open;
  // stop background work first (the mail worker), then close the database
  // so the process can exit (and PGlite flushes).
  const stop = async (signal: string) => {
    log.info({ signal }, "shutting down");
    try {
      await runShutdownHooks();
      await (await connection)?.close();
    } finally {
      process.exit(0);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
