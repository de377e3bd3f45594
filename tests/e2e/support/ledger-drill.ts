import { execFile } from "node:child_process";
import postgres from "postgres";
import { expect } from "./test";
import type { OwnServer } from "./own-server";

/**
 * The crash drill's tools (tests/e2e/quality/ledger-kill.spec.ts): hold a table's lock from
 * another connection so the server stops at the write it makes there, see that it is stopped
 * there, SIGKILL it, and give the lock back.
 */

/**
 * A SHARE lock on `table`, held by a connection of its own until `release()`: every write to the
 * table waits for it, reads do not (the server reads the tables it is stopped at before it gets
 * there: a slot's bookings are counted before the card is charged). The transaction rolls back.
 */
export async function lockTable(dbUrl: string, table: string): Promise<{ release(): Promise<void> }> {
  const connection = postgres(dbUrl, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const rollback = new Error("rollback");
  const holder = connection
    .begin(async (tx) => {
      await tx.unsafe(`lock table "${table}" in share mode`);
      locked();
      await released;
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  await Promise.race([isLocked, holder]);
  return {
    async release() {
      release();
      await holder;
      await connection.end({ timeout: 2 });
    },
  };
}

/** How many backends of this database wait for a lock on `table` (the server stopped at its write). */
export async function waitingOn(sql: postgres.Sql, table: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_locks
     where not granted and relation = to_regclass(${table}) and database = (select oid from pg_database where datname = current_database())`;
  return row!.n;
}

/** Ends the backends waiting on `table`'s lock (the killed server's connections). */
async function endWaitingBackends(sql: postgres.Sql, table: string): Promise<void> {
  await sql`
    select pg_terminate_backend(pid) from pg_locks
     where not granted and relation = to_regclass(${table}) and database = (select oid from pg_database where datname = current_database())`;
  await expect.poll(() => waitingOn(sql, table), { timeout: 10_000, intervals: [100] }).toBe(0);
}

/**
 * Sends `send()` with `table` locked, waits until `atPoint()` says the ledger is where the drill
 * wants it (polled) and the server waits on the table, then kills the server with SIGKILL: the
 * request is never answered. The lock is given back whatever happens.
 */
export async function killWhileBlocked(
  server: OwnServer,
  {
    dbUrl,
    sql,
    table,
    send,
    atPoint,
    expected,
  }: {
    dbUrl: string;
    sql: postgres.Sql;
    table: string;
    send: () => Promise<Response>;
    /** What the ledger shows at the point (compared with `expected`). */
    atPoint: () => Promise<unknown>;
    expected: unknown;
  },
): Promise<void> {
  const lock = await lockTable(dbUrl, table);
  try {
    const inFlight = send().then(
      async (r) => `answered ${r.status}: ${(await r.text()).slice(0, 300)}`,
      () => "no answer",
    );
    await expect
      .poll(async () => ({ ledger: await atPoint(), waitingOnTable: (await waitingOn(sql, table)) > 0 }), {
        message: `the server stopped at its write to ${table}\n${server.output().slice(-1500)}`,
        timeout: 40_000,
        intervals: [100],
      })
      .toEqual({ ledger: expected, waitingOnTable: true });
    server.child.kill("SIGKILL");
    expect(await server.exited).toBeNull();
    expect(await inFlight).toBe("no answer");
    // What the dead process was doing dies with it: its statement waiting on the lock would
    // otherwise run once the lock is given back (PostgreSQL notices a lost client only when it
    // next talks to it), and a processor's insert made outside a transaction would then commit.
    await endWaitingBackends(sql, table);
  } finally {
    await lock.release();
  }
}

/**
 * The reconciler's lease (server/maintenance.ts: a claim in submission_claims that one instance
 * at a time holds), taken as another instance would: while it is fresh, no server of the drill
 * runs a reconciliation round, so none stalls on a drill's lock and every row is settled by the
 * one reconciliation after the last restart.
 */
export const RECONCILER_LEASE = "ledger-reconciler";

export type Lease = { release(): Promise<void>; stop(): void };

/** Takes the lease and renews it every 10 s (a lease not renewed for a minute is stale) until `release()`. */
export async function holdReconcilerLease(sql: postgres.Sql): Promise<Lease> {
  const take = () => sql`
    insert into submission_claims (key, form, state, updated_at) values (${RECONCILER_LEASE}, 'lease', 'running', now())
    on conflict (key) do update set state = 'running', status = null, message = null, updated_at = now()`;
  await take();
  const renew = setInterval(() => void take().catch(() => {}), 10_000);
  const stop = () => clearInterval(renew);
  return {
    stop,
    async release() {
      stop();
      await sql`delete from submission_claims where key = ${RECONCILER_LEASE}`;
    },
  };
}

const OPEN = "(state in ('requested', 'unknown') or (state = 'succeeded' and resolved_at is null))";

/** The ledger's rows still open: no answer recorded, or money taken with nothing standing on it. */
export async function openLedgerRows(
  sql: postgres.Sql,
): Promise<{ id: number; kind: string; state: string; key: string }[]> {
  return [
    ...(await sql.unsafe(`select id, kind, state, idempotency_key as key from payments where ${OPEN} order by id`)),
  ] as never;
}

/** How many open rows the reconciler would still leave alone: touched less than `graceMs` ago. */
export async function openRowsInGrace(sql: postgres.Sql, graceMs: number): Promise<number> {
  const [row] = await sql.unsafe(
    `select count(*)::int as n from payments where ${OPEN} and coalesce(updated_at, created_at) > now() - make_interval(secs => $1)`,
    [graceMs / 1000],
  );
  return Number(row!.n);
}

/** `npm run payments:audit` on the drill's database (the sandbox's books are in it): its exit code and output. */
export function paymentsAudit(dbUrl: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "payments:audit"],
      {
        env: { ...process.env, DATABASE_URL: dbUrl, PAYMENT_GATEWAY: "sandbox", LOG_LEVEL: "warn" },
        timeout: 180_000,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

function unescapeHtml(s: string) {
  return s
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

/** A hidden input's value in a page (the move form's change key, the visit it was rendered for). */
export function hiddenValue(html: string, name: string): string {
  const tag = [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).find((t) => t.includes(`name="${name}"`));
  const value = tag ? /\bvalue="([^"]*)"/.exec(tag)?.[1] : undefined;
  if (value === undefined) throw new Error(`no hidden input ${name} in the page:\n${html.slice(0, 500)}`);
  return unescapeHtml(value);
}
