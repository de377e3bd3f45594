import type { PGlite } from "@electric-sql/pglite";
import { sql, type Logger } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { env } from "../app/lib/env.server";
import { passTransactionClients, runInTransaction } from "./driver-client.server";
import { createPgliteFolder } from "./pglite-template.server";
import { pgliteJobDb, type QueueConnection } from "./queue.server";
import { resultRows } from "./result-rows";
import { stopwatch } from "./stopwatch";
import { takeTurns } from "./pglite-turns.server";
import * as schema from "./schema";

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
  /** Where the job queue's worker reaches the database (db/queue.server.ts). */
  queue: QueueConnection;
  /**
   * Whether the database answers now, within 2 s (/healthz). On PostgreSQL through a connection of
   * its own: a pool busy with a backlog (the posts queued during an outage) is not a database
   * that is away, and a probe must not wait behind it.
   */
  ping(): Promise<boolean>;
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
  /**
   * Folder of prepared templates for new PGlite data folders (see
   * pglite-template.server.ts); `false` turns them off. Default:
   * PGLITE_TEMPLATE_DIR, else node_modules/.cache/pglite-template.
   */
  templateDir?: string | false;
  /** Called after each start-up step with its duration (debug timing logs). */
  onPhase?: (phase: string, ms: number) => void;
  /**
   * Test hook: Drizzle's query logger on the handle returned, told every statement sent through it
   * with its parameters (on PGlite the migrations' and the seed's too; the test reading them,
   * tests/integration/background-plans.test.ts, EXPLAINs what the background jobs send). The server
   * never sets it.
   */
  logger?: Logger;
};

/** MIGRATIONS_DIR, else db/migrations under the working directory. */
export const migrationsFolder = path.resolve(env().MIGRATIONS_DIR ?? "db/migrations");

/**
 * The pool's behaviour in an outage (tested by tests/e2e/quality/db-fault.spec.ts,
 * which stops a PostgreSQL server under load). A connection is opened when a
 * query needs one; a failed attempt rejects that query only, and the queries
 * queued behind it wait for the connection's next attempt.
 *
 * - `backoff`: seconds a connection waits after a failed attempt before its
 *   next one. postgres-js's default grows with every failure in the pool
 *   (3^n / 100 s, up to 20 s): after a few seconds of outage each queued query
 *   waited up to 20 s, requests piled up instead of getting their 503, and the
 *   first posts after the database returned waited out the backoff too. Attempts
 *   are driven by queries (none are made while nothing asks), so a short fixed
 *   pause is enough: a refused attempt answers in about a millisecond.
 * - `connect_timeout`: a server that does not answer at all (a host gone from the
 *   network) fails each attempt after 5 s rather than 30.
 * - `idle_timeout`: idle connections are closed after a minute, so few are left
 *   for a restart to break. An idle connection that a restart closes (57P01) is
 *   reopened by its next query; one broken under a query fails that query with
 *   CONNECTION_CLOSED, which the form pipeline retries once.
 * The driver itself is patched (patches/postgres+3.4.9.patch,
 * docs/decisions/027-postgres-js-patch.md): a closed connection no longer throws outside any handler, nor hands the
 * closed backend's last error to the next query.
 */
export const POOL_OPTIONS = {
  onnotice: () => {},
  idle_timeout: 60,
  connect_timeout: 5,
  backoff: () => 0.05,
} satisfies postgres.Options<Record<string, postgres.PostgresType>>;

/** Arbitrary constant: every instance takes this advisory lock while migrating and seeding. */
const MIGRATION_LOCK = 7_362_201;

export async function openDatabase(opts: OpenOptions): Promise<Connection> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts);
  return openPglite(opts);
}

async function openPostgres(url: string, opts: OpenOptions): Promise<Connection> {
  const phase = stopwatch(opts);
  const client = postgres(url, { ...POOL_OPTIONS, max: env().DATABASE_POOL_MAX });
  const db = drizzlePostgres(prepared(client), { schema, logger: opts.logger }) as unknown as Database;
  try {
    // On fly.io the release command has migrated already: one query on the pool's first
    // connection (which the first page needs anyway) says so, and nothing else waits.
    const current = await isCurrent(db, opts.seed);
    phase("check schema");
    if (!current) await migrateAndSeed(url, opts);
  } catch (error) {
    await client.end({ timeout: 1 });
    throw error;
  }
  const health = postgres(url, { ...POOL_OPTIONS, max: 1, connect_timeout: 2 });
  return {
    db,
    kind: "postgres",
    queue: { connectionString: url, max: 2 },
    ping: () => answersWithin(health`select 1`),
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), health.end({ timeout: 1 })]);
    },
  };
}

/**
 * Migrates and seeds on a single dedicated connection that holds a session-level advisory lock,
 * so two instances starting at once (or a release and a start) take turns.
 */
async function migrateAndSeed(url: string, opts: OpenOptions): Promise<void> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const phase = stopwatch(opts);
  try {
    await admin`select pg_advisory_lock(${MIGRATION_LOCK})`;
    phase("connect + advisory lock");
    const adminDb = drizzlePostgres(admin, { schema }) as unknown as Database;
    await migratePostgres(adminDb as never, { migrationsFolder });
    phase("migrate");
    if (opts.seed) await seed(adminDb);
    phase("seed");
    await admin`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/** The seed and its data (the catalogue, the reviews), loaded only when a database needs them. */
async function seed(db: Database): Promise<void> {
  await (await import("./seed")).seed(db);
}

/** The `when` of the newest migration in the folder (drizzle-kit's journal), read once. */
let newestMigration: number | undefined;
function newestMigrationTime(): number {
  newestMigration ??= Math.max(
    ...(
      JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
        entries: { when: number }[];
      }
    ).entries.map((entry) => entry.when),
  );
  return newestMigration;
}

/**
 * Whether the database has every migration of the folder (and, when `seeded` is asked, the seed),
 * in one statement. Drizzle's migrator applies a migration whose `when` is newer than the last
 * one it recorded, so a record as new as the folder's newest means there is nothing to apply.
 * Anything it cannot read (a new database has no `drizzle` schema) means "not current": the
 * migrator, under its lock, then decides.
 */
async function isCurrent(db: Database, seeded: boolean | undefined): Promise<boolean> {
  try {
    const result = await db.execute(sql`
      select coalesce((select max(created_at) from drizzle.__drizzle_migrations) >= ${newestMigrationTime()}, false) as migrated,
        exists (select 1 from ${schema.locations}) and exists (select 1 from ${schema.reviews})
          and exists (select 1 from ${schema.categories}) as seeded`);
    const [row] = resultRows<{ migrated: boolean; seeded: boolean }>(result);
    return Boolean(row?.migrated) && (!seeded || Boolean(row?.seeded));
  } catch {
    return false;
  }
}

/**
 * Drizzle runs its postgres-js queries as unnamed statements (`prepare: false`,
 * drizzle-orm#6096), and postgres-js then asks the server for a statement's
 * parameter types before it can send the values: two round trips per query.
 * As prepared statements (postgres-js's own default) a query is described once
 * per connection and cached: one round trip after that. The same goes for the
 * client of a transaction and of a savepoint, which Drizzle runs its
 * statements on (and which code inside the transaction may reach through
 * `driverClientOf`, for a COPY). (docs/decisions/050-form-path.md)
 */
function prepared(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) =>
          (Reflect.get(target, property) as (...a: unknown[]) => unknown)(
            ...args.map((arg) =>
              typeof arg === "function" ? inTransaction(arg as (tx: postgres.Sql) => unknown) : arg,
            ),
          );
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * A transaction's (or savepoint's) callback, handed the prepared client of that transaction,
 * which `driverClientOf` (driver-client.server.ts) gives while the callback runs.
 */
function inTransaction(callback: (tx: postgres.Sql) => unknown) {
  return (tx: postgres.Sql) => {
    const client = prepared(tx);
    return runInTransaction({ postgres: client }, () => callback(client));
  };
}

/**
 * A small site needs little of Postgres's memory: the defaults (128 MB of
 * shared buffers inside the WebAssembly heap) would swell the server's RSS
 * (docs/decisions/003-pglite-memory.md).
 */
export const PGLITE_CONF = "shared_buffers=16MB\nwork_mem=4MB\nmaintenance_work_mem=16MB";

/** PGlite and Drizzle's driver and migrator for it. */
async function loadPglite() {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  return { PGlite, drizzlePglite: drizzle, migratePglite: migrate };
}

async function openPglite(opts: OpenOptions): Promise<Connection> {
  let phase = stopwatch(opts);
  const inMemory = !opts.dataDir || opts.dataDir.startsWith("memory://");
  const share = !inMemory && opts.socketPort;
  // The embedded database's code is loaded only when it is the store: a server on PostgreSQL
  // starts ~50 ms sooner without it (docs/decisions/075-start-and-memory.md).
  const pglite = loadPglite();
  // Loaded while the database opens, not after.
  const socketModule = share ? import("@electric-sql/pglite-socket") : undefined;
  socketModule?.catch(() => {});
  const { PGlite, drizzlePglite, migratePglite } = await pglite;
  let client: PGlite;
  if (inMemory) {
    client = new PGlite({ postgresqlconf: PGLITE_CONF });
  } else {
    const dir = path.resolve(opts.dataDir!);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(path.join(dir, "PG_VERSION"))) {
      // A new folder: a copy of the prepared template, or initdb in a child process.
      await createPgliteFolder(dir, {
        migrationsFolder,
        conf: PGLITE_CONF,
        templateRoot: opts.templateDir,
        onPhase: opts.onPhase,
      });
      phase = stopwatch(opts);
    }
    client = new PGlite(dir, { postgresqlconf: PGLITE_CONF });
  }
  await client.waitReady;
  phase("open");
  const db = drizzlePglite(passTransactionClients(takeTurns(client)), {
    schema,
    logger: opts.logger,
  }) as unknown as Database;
  // A folder the site used before: one statement says there is nothing to migrate or seed.
  const current = await isCurrent(db, opts.seed);
  phase("check schema");
  if (!current) {
    await migratePglite(db as never, { migrationsFolder });
    phase("migrate");
    if (opts.seed) await seed(db);
    phase("seed");
  }

  let socketServer: { stop(): Promise<void> } | undefined;
  let socketUrl: string | undefined;
  if (share && socketModule) {
    const { PGLiteSocketServer } = await socketModule;
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
  if (socketServer) phase("socket share");
  return {
    db,
    kind: "pglite",
    socketUrl,
    queue: { db: pgliteJobDb(client) },
    ping: () => ping(db),
    async close() {
      await socketServer?.stop().catch(() => {});
      await client.close();
    },
  };
}

/** Cheap liveness query: false when the database refuses it or has not answered within `timeoutMs`. */
export function ping(db: Database, timeoutMs = 2_000): Promise<boolean> {
  return answersWithin(db.execute(sql`select 1`), timeoutMs);
}

/** Whether a query settles with an answer within `timeoutMs` (an error or a late answer: false). */
async function answersWithin(query: PromiseLike<unknown>, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
  try {
    return await Promise.race([Promise.resolve(query).then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** `count(*)` is a string from postgres-js and a number from PGlite. */
export function toCount(value: unknown): number {
  return typeof value === "number" ? value : Number(value ?? 0);
}
