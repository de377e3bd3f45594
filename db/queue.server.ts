import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { DbOrTx } from "./client.server";
import { resultRows } from "./result-rows";

/**
 * The job queue is pg-boss (docs/decisions/045-job-queue.md). Its tables live
 * in the `pgboss` schema, created by our own migration (0010) so that every
 * database, the PGlite templates included, has them before a job is added.
 *
 * pg-boss speaks to the database through `executeSql(text, values)`. On
 * PostgreSQL the worker gets its own small `pg` pool (pg-boss's default); on
 * PGlite, and for a job added inside a submission's transaction, it goes
 * through the handles below.
 */
export type JobDb = PgBoss.Db;

/** The worker's connection: its own pool on a server, the embedded database's one session otherwise. */
export type QueueConnection = { connectionString: string; max: number } | { db: JobDb };

/** A value as `pg` would send it: arrays as Postgres array literals, objects as JSON, undefined as null. */
function pgValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item === null || item === undefined ? "NULL" : `"${String(pgValue(item)).replace(/[\\"]/g, "\\$&")}"`,
    );
    return `{${items.join(",")}}`;
  }
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

/**
 * pg-boss on the embedded database. A text without values may hold several
 * statements (its maintenance sends `BEGIN; …; COMMIT;` blocks): those go to
 * `exec`, and a block that fails is rolled back here, or PGlite's one session
 * would stay in an aborted transaction and fail the site's next query.
 */
export function pgliteJobDb(client: PGlite): JobDb {
  return {
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values.map(pgValue));
      try {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      } catch (error) {
        await client.exec("ROLLBACK").catch(() => {});
        throw error;
      }
    },
  };
}

/**
 * pg-boss inside one of our Drizzle transactions (either driver): its text
 * becomes a Drizzle query whose `$n` are parameters again. Only single
 * statements with values pass this way (adding jobs).
 */
function transactionJobDb(tx: DbOrTx): JobDb {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const query: SQL = sql.join(
        parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${pgValue(values[Number(part) - 1])}`)),
        sql``,
      );
      const result: unknown = await tx.execute(query);
      return { rows: resultRows(result) };
    },
  };
}

let pgBoss: Promise<typeof PgBoss> | undefined;

/**
 * pg-boss (and its `pg` driver), loaded on first use: the first pages after a start need neither,
 * and loading them took ~100 ms of the start (docs/decisions/075-start-and-memory.md). The
 * background work asks for it a second after the database opens, so a visitor's first post
 * seldom waits for it. The one way the site reaches pg-boss's class.
 */
export function loadPgBoss(): Promise<typeof PgBoss> {
  pgBoss ??= import("pg-boss").then((module) => module.default);
  return pgBoss;
}

let producer: Promise<PgBoss> | undefined;

/** Adds jobs with pg-boss's own statement; the database is always the one given with each call. */
function jobProducer(): Promise<PgBoss> {
  producer ??= loadPgBoss().then(
    (Boss) =>
      new Boss({
        db: { executeSql: () => Promise.reject(new Error("jobs are added through a transaction's handle")) },
        supervise: false,
        schedule: false,
        migrate: false,
      }),
  );
  return producer;
}

/** When a job may run, and the key that keeps it the only one waiting of its kind (pg-boss's). */
export type JobTiming = { startAfter?: Date; singletonKey?: string };

/**
 * Adds jobs to a queue in the caller's transaction (one statement): they
 * commit or roll back with it. A queue that does not exist takes none. The one
 * way the site adds a job: the mail (app/mail/outbox.server.ts) and the
 * booking's reminders (app/booking/reminders.server.ts) both come here.
 */
export async function addJobs(tx: DbOrTx, queue: string, data: object[], timing: JobTiming = {}): Promise<void> {
  if (data.length === 0) return;
  await (
    await jobProducer()
  ).insert(
    data.map((item) => ({ name: queue, data: item, ...timing })),
    { db: transactionJobDb(tx) },
  );
}

/**
 * The queue in the caller's transaction, where it is missing: pg-boss's own function (a row in
 * pgboss.queue and its partition of pgboss.job). Once it exists this is one index read.
 */
export async function ensureQueue(db: DbOrTx, queue: string, options: object): Promise<void> {
  await db.execute(
    sql`select pgboss.create_queue(${queue}, ${JSON.stringify(options)}::json)
        where not exists (select 1 from pgboss.queue where name = ${queue})`,
  );
}
