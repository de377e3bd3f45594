import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import * as schema from "./schema";
import { seed } from "./seed";

export { schema };

/** One Drizzle type for both drivers (a union of the two breaks `.returning()`). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DbOrTx = Database | Tx;

export type Connection = {
  db: Database;
  kind: "pglite" | "postgres";
  /** Shares an embedded database over the Postgres wire protocol (Studio, psql, pg_dump). */
  socketUrl?: string;
  close(): Promise<void>;
};

export type OpenOptions = {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data folder; `memory://` (or undefined) keeps it in memory. */
  dataDir?: string;
  /** Loopback port to share the PGlite database on; 0 disables. */
  socketPort?: number;
  /** Fill an empty database with the fixed data (locations, reviews, catalogue). */
  seed?: boolean;
  /** Called with a warning text (e.g. the socket port was taken). */
  warn?: (msg: string) => void;
};

export const migrationsFolder = path.resolve(
  process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "db/migrations"),
);

/** Arbitrary constant: every instance takes this advisory lock while migrating and seeding. */
const MIGRATION_LOCK = 7_362_201;

export async function openDatabase(opts: OpenOptions): Promise<Connection> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts);
  return openPglite(opts);
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Connection> {
  // Migrate and seed on a single dedicated connection that holds a session-level
  // advisory lock, so two instances starting at once take turns.
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const adminDb = drizzlePostgres(admin, { schema }) as unknown as Database;
    await migratePostgres(adminDb as never, { migrationsFolder });
    if (opts.seed) await seed(adminDb);
    await admin`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  const client = postgres(url, {
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    onnotice: () => {},
    idle_timeout: 60,
    connect_timeout: 10,
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * A small site needs little of Postgres's memory: the defaults (128 MB of
 * shared buffers inside the WebAssembly heap) would triple the server's RSS.
 */
const PGLITE_CONF = "shared_buffers=16MB\nwork_mem=4MB\nmaintenance_work_mem=16MB";

/**
 * Creating a PGlite cluster runs initdb, which leaves ~700 MB resident in the
 * process that ran it. Do it once in a short-lived child so the server never
 * carries that peak.
 */
async function initPgliteFolder(dir: string): Promise<void> {
  const code = `import { PGlite } from "@electric-sql/pglite";
const db = new PGlite(process.argv[1]); await db.waitReady; await db.close();`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code, dir], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`PGlite init failed: ${err.slice(-500)}`))));
  });
}

async function openPglite(opts: OpenOptions): Promise<Connection> {
  const inMemory = !opts.dataDir || opts.dataDir.startsWith("memory://");
  let client: PGlite;
  if (inMemory) {
    client = new PGlite({ postgresqlconf: PGLITE_CONF });
  } else {
    const dir = path.resolve(opts.dataDir!);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, "PG_VERSION"))) await initPgliteFolder(dir);
    client = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  if (opts.seed) await seed(db);

  let socketServer: { stop(): Promise<void> } | undefined;
  let socketUrl: string | undefined;
  if (!inMemory && opts.socketPort) {
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const server = new PGLiteSocketServer({
      db: client,
      port: opts.socketPort,
      host: "127.0.0.1",
      maxConnections: 8,
    });
    try {
      await server.start();
      socketServer = server;
      socketUrl = `postgres://postgres@127.0.0.1:${opts.socketPort}/postgres?sslmode=disable`;
    } catch (error) {
      opts.warn?.(
        `Could not share the embedded database on 127.0.0.1:${opts.socketPort} (${(error as Error).message}); Studio will not reach it.`,
      );
    }
  }
  return {
    db,
    kind: "pglite",
    socketUrl,
    async close() {
      await socketServer?.stop().catch(() => {});
      await client.close();
    },
  };
}

/** Cheap liveness query for /healthz. */
export async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** `count(*)` is a string from postgres-js and a number from PGlite. */
export function toCount(value: unknown): number {
  return typeof value === "number" ? value : Number(value ?? 0);
}
