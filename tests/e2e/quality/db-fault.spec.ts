import { expect, test } from "../support/test";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import postgres from "postgres";
import { POOL_OPTIONS } from "../../../db/client.server";
import { startOwnServer, type OwnServer } from "../support/own-server";
import { noJsFieldsFromHtml } from "./form-support";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres";

/**
 * The database goes away and comes back, on a PostgreSQL cluster of this
 * file's own (the shared server on 5432 serves the other tests at the same
 * time and is never stopped).
 *
 * First the driver (postgres-js 3.4.9, patched: patches/postgres+3.4.9.patch,
 * docs/decisions/027-postgres-js-patch.md), through both copies the package ships, with the
 * server's pool options: a backend that dies under a transaction, under a
 * query, and under a reserved connection.
 *
 * Then the production server, while `pg_ctl stop -m fast` takes the database
 * away for 10 s and no-JS contact posts arrive at 40 a second. It must:
 * - stay up (unpatched, the driver threw from a setImmediate on a closed
 *   connection and ended the process within a second of the stop);
 * - answer /healthz 503 while the database is away and 200 after;
 * - answer every post (none left waiting), with a success or a 503 that has
 *   Retry-After;
 * - never leave a visitor with a wrong answer: every 2xx has exactly one row,
 *   and every other answer, resubmitted as a visitor does from the page it got
 *   back, ends with exactly one row (a 503 sent after a commit included);
 * - accept posts again within 5 s of the database's return, without a restart
 *   (no pooled connection left broken by the outage).
 */
test.describe.configure({ mode: "serial" });

const RATE = 40; // posts per second
const BEFORE_MS = 3_000;
const DOWN_MS = 10_000;
const AFTER_MS = 8_000;
const RECOVERY_MS = 5_000;

type Answer = { status: number; body: string; retryAfter: string | null; error?: string };
type Post = Answer & { i: number; email: string; sentAt: number; doneAt: number };

let pg: PrivatePostgres | undefined;
let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  pg = await startPrivatePostgres();
});

test.afterAll(async () => {
  await server?.stop();
  await pg?.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The outcome of a query: "ok", or the error's code ("hung" when it never settles). */
const outcome = (q: Promise<unknown>, ms = 10_000) =>
  Promise.race([
    q.then(
      () => "ok",
      (e: { code?: string }) => e.code ?? String(e),
    ),
    sleep(ms).then(() => "hung"),
  ]);

// The package ships an ES module copy (what the server and this file load) and
// a CommonJS copy (what require() gets): both are patched.
const copies: [string, () => typeof postgres][] = [
  ["ES module", () => postgres],
  ["CommonJS", () => createRequire(import.meta.url)("postgres") as typeof postgres],
];

for (const [copy, driver] of copies) {
  test(`driver (${copy}): a backend that dies under a transaction, a query or a reserved connection gives catchable errors, nothing runs outside the transaction, the next query succeeds`, async () => {
    const connect = driver();
    const url = pg!.url;
    const run = randomBytes(4).toString("hex");
    const killer = connect(url, { max: 1, onnotice: () => {} });
    // One connection: the pool reopens the very connection that broke.
    const sql = connect(url, { ...POOL_OPTIONS, max: 1 });
    const kill = (pid: number) => killer`select pg_terminate_backend(${pid})`;
    try {
      await killer`create table if not exists driver_probe (run text, v text)`;

      // 1. A transaction whose backend dies between two of its statements.
      // Unpatched, its next statement ran outside any transaction on the
      // connection the pool had reopened (or crashed the process writing to
      // the closed one).
      let pid = 0;
      let inserted!: () => void;
      let resume!: () => void;
      let lastSettled!: () => void;
      const insertedP = new Promise<void>((r) => (inserted = r));
      const resumeP = new Promise<void>((r) => (resume = r));
      const lastStatementSettled = new Promise<void>((r) => (lastSettled = r));
      const tx = sql.begin(async (t) => {
        pid = (await t<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
        await t`insert into driver_probe values (${run}, 'inside')`;
        inserted();
        await resumeP;
        try {
          await t`insert into driver_probe values (${run}, 'after the close')`;
        } finally {
          lastSettled();
        }
      });
      const txOutcome = outcome(tx);
      await insertedP;
      await kill(pid);
      // Another request's query: the pool reopens the connection for it.
      expect(await outcome(sql`select 1`)).toBe("ok");
      resume();
      expect(await txOutcome).toBe("CONNECTION_CLOSED");
      // The transaction callback's last statement has failed, or gone somewhere (bounded: a hang is no write).
      await outcome(lastStatementSettled);
      expect(await killer`select v from driver_probe where run = ${run}`).toEqual([]);

      // 2. A query in flight when its backend dies (a restart sends 57P01 first).
      // Unpatched, the next query on the reopened connection got that old 57P01.
      const slow = outcome(sql`select pg_sleep(30)`);
      let slowPid: number | undefined;
      for (let i = 0; i < 100 && !slowPid; i++) {
        await sleep(50);
        const [row] = await killer<{ pid: number }[]>`
          select pid from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'`;
        slowPid = row?.pid;
      }
      expect(slowPid).toBeTruthy();
      await kill(slowPid!);
      expect(["CONNECTION_CLOSED", "57P01"]).toContain(await slow);
      expect(await outcome(sql`select 1`)).toBe("ok");

      // 3. A reserved connection whose backend died (porsager/postgres#1208):
      // unpatched, the write threw from a setImmediate and ended the process.
      let closes = 0;
      const pool = connect(url, { ...POOL_OPTIONS, max: 2, onclose: () => closes++ });
      try {
        const reserved = await pool.reserve();
        const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await kill(row!.pid);
        // The close has arrived: the driver has handled it (its onclose is called last).
        await expect.poll(() => closes).toBe(1);
        expect(await outcome(reserved`select 1`)).toBe("CONNECTION_CLOSED");
        expect(await outcome(reserved`select 1`)).toBe("CONNECTION_CLOSED");
        reserved.release();
      } finally {
        await pool.end({ timeout: 1 });
      }
    } finally {
      await sql.end({ timeout: 1 });
      await killer.end({ timeout: 1 });
    }
  });
}

test("PostgreSQL stopped for 10 s under 40 form posts a second: the server stays up, no post is lost or doubled, posts succeed again within 5 s", async () => {
  test.setTimeout(240_000);
  const cluster = pg!;
  server = await startOwnServer({
    env: () => ({
      DATABASE_URL: cluster.url,
      FORM_MIN_FILL_MS: "0",
      RATE_LIMIT_MAX: "1000000",
      RATE_LIMIT_NOJS_MAX: "1000000",
      LOG_LEVEL: "warn",
    }),
  });
  const { url } = server;
  const run = randomBytes(4).toString("hex");
  const total = Math.round(((BEFORE_MS + DOWN_MS + AFTER_MS) / 1000) * RATE);

  // Every post carries its own challenge (single use): fetched before the load.
  const forms: Record<string, string>[] = [];
  for (let i = 0; i < total; i++)
    forms.push(noJsFieldsFromHtml(await (await fetch(`${url}/contact`)).text(), { visible: true }));

  const post = async (fields: Record<string, string>): Promise<Answer> => {
    try {
      const res = await fetch(`${url}/contact`, {
        method: "POST",
        headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
        redirect: "manual",
        // A post left waiting is a failure too (a dropped write never settles).
        signal: AbortSignal.timeout(60_000),
      });
      return { status: res.status, body: await res.text(), retryAfter: res.headers.get("retry-after") };
    } catch (error) {
      return { status: 0, body: "", retryAfter: null, error: String(error) };
    }
  };
  const values = (i: number) => ({
    first_name: "Fault",
    last_name: `Test ${i}`,
    email: `fault.${run}.${i}@example.com`,
    phone: "(810) 555-0142",
    details: `Submission ${i} of fault run ${run}`,
  });

  // /healthz every 250 ms throughout, each probe on its own (a slow answer does not delay the next).
  const probes: Promise<{ sentAt: number; doneAt: number; status: number }>[] = [];
  const watcher = setInterval(() => {
    const sentAt = Date.now();
    probes.push(
      fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) })
        .then((r) => r.status)
        .catch(() => 0)
        .then((status) => ({ sentAt, doneAt: Date.now(), status })),
    );
  }, 250);

  // The load: one post every 25 ms, whatever the answers do (open loop).
  const t0 = Date.now();
  const posts: Promise<Post>[] = [];
  const load = (async () => {
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / RATE - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sentAt = Date.now();
      posts.push(
        post({ ...forms[i]!, ...values(i) }).then((r) => ({
          i,
          email: values(i).email,
          sentAt,
          doneAt: Date.now(),
          ...r,
        })),
      );
    }
  })();

  // The outage, in the middle of the load.
  await new Promise((r) => setTimeout(r, BEFORE_MS));
  const downAt = Date.now();
  await cluster.stop();
  const stoppedAt = Date.now();
  await new Promise((r) => setTimeout(r, DOWN_MS - (stoppedAt - downAt)));
  // The database accepts connections somewhere between these two (pg_ctl -w polls).
  const startingAt = Date.now();
  await cluster.start();
  const upAt = Date.now();

  await load;
  const results = await Promise.all(posts);
  // Probes go on at least 3 s past the recovery mark, however fast the load ended: a slow start of
  // the database (pg_ctl under load) must not leave the "5 s after its return" check with no probe.
  await sleep(Math.max(0, upAt + RECOVERY_MS + 3_000 - Date.now()));
  clearInterval(watcher);
  const health = await Promise.all(probes);
  // The run's timeline (ms from the start), for whoever reads a failure.
  await test.info().attach("timeline.json", {
    contentType: "application/json",
    body: JSON.stringify({
      stop: [downAt - t0, stoppedAt - t0],
      start: [startingAt - t0, upAt - t0],
      health: health.map((h) => [h.sentAt - t0, h.doneAt - t0, h.status]),
      posts: results.map((r) => [r.i, r.sentAt - t0, r.doneAt - t0, r.status]),
    }),
  });
  const crashed = () => `server exited (${server!.exit()}):\n${server!.output().slice(-3000)}`;
  expect(server.exit(), crashed()).toBeNull();

  // /healthz: 503 while the database was away, 200 once it is back.
  const duringOutage = health.filter((h) => h.sentAt > stoppedAt && h.doneAt < startingAt);
  expect(duringOutage.length, "health probes answered during the outage").toBeGreaterThan(2);
  expect(
    duringOutage.map((h) => h.status).filter((s) => s !== 503),
    "health during the outage",
  ).toEqual([]);
  const healthAfter = health.filter((h) => h.sentAt >= upAt + RECOVERY_MS);
  expect(healthAfter.length).toBeGreaterThan(2);
  expect(
    healthAfter.map((h) => h.status).filter((s) => s !== 200),
    "health 5 s after the return",
  ).toEqual([]);

  // Every answer is an answer (no hung or dropped request), a success or a 503 with Retry-After.
  const hung = results.filter((r) => r.status === 0);
  expect(
    hung.map((r) => `${r.i}: ${r.error}`),
    "posts without an answer",
  ).toEqual([]);
  const ok = (s: number) => s >= 200 && s < 300;
  const odd = results.filter((r) => !ok(r.status) && r.status !== 503);
  // What the server logged at error level besides the outage it expects, to name the cause of an odd answer.
  const serverErrors = () =>
    server!
      .output()
      .split("\n")
      .filter(
        (line) => line.includes('"level":50') && !/database unavailable|pg-boss|terminating connection/.test(line),
      )
      .map((line) => line.slice(0, 600))
      .slice(0, 10)
      .join("\n");
  expect(
    odd.map((r) => `${r.i}: ${r.status} ${r.body.slice(0, 200)}`),
    `answers other than 2xx or 503; the server's errors:\n${odd.length ? serverErrors() : ""}`,
  ).toEqual([]);
  for (const r of results.filter((r) => ok(r.status))) expect(r.body).toContain("Your message has been sent!");
  const failed = results.filter((r) => !ok(r.status));
  expect(
    failed.filter((r) => !r.retryAfter).map((r) => r.i),
    "503 answers without Retry-After",
  ).toEqual([]);
  expect(failed.length, "the outage was felt").toBeGreaterThan(0);
  expect(results.filter((r) => r.sentAt < downAt && ok(r.status)).length, "posts before the outage").toBeGreaterThan(0);

  // Back within 5 s of the database's return (posts that waited through the
  // outage count: they are the first to be stored), and staying back.
  const firstOk = results.filter((r) => ok(r.status) && r.doneAt >= startingAt).sort((a, b) => a.doneAt - b.doneAt)[0];
  expect(firstOk, "a post succeeded after the database came back").toBeDefined();
  expect(firstOk!.doneAt - upAt, "ms from the database's return to the first accepted post").toBeLessThanOrEqual(
    RECOVERY_MS,
  );
  const late = results.filter((r) => r.sentAt >= upAt + RECOVERY_MS);
  expect(late.length).toBeGreaterThan(0);
  expect(
    late.filter((r) => !ok(r.status)).map((r) => `${r.i} sent ${r.sentAt - upAt} ms after the return: ${r.status}`),
    "posts sent 5 s or more after the return",
  ).toEqual([]);

  // Rows: exactly one for every 2xx.
  const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
  try {
    const countRows = async () =>
      new Map(
        (
          await sql<{ email: string; n: number }[]>`
            select email, count(*)::int as n from contact_submissions where email like ${`fault.${run}.%`} group by email`
        ).map((r) => [r.email, r.n]),
      );
    let rows = await countRows();
    const wrong = results.filter((r) => ok(r.status) && rows.get(r.email) !== 1);
    expect(
      wrong.map((r) => `${r.email}: ${rows.get(r.email) ?? 0} rows`),
      "2xx answers without exactly one row",
    ).toEqual([]);

    // Every failed post, resubmitted by its visitor from the page it got back
    // (its values kept, a fresh challenge): accepted, and one row in all.
    // A 503 sent after a commit must not become a duplicate here.
    const committedAnyway = failed.filter((r) => (rows.get(r.email) ?? 0) > 0).length;
    for (const r of failed) {
      const again = await post({ ...noJsFieldsFromHtml(r.body, { visible: true }), ...values(r.i) });
      expect(again.status, `resubmission of post ${r.i}: ${again.body.slice(0, 200)}`).toBe(200);
      expect(again.body).toContain("Your message has been sent!");
    }
    rows = await countRows();
    const notOne = results.filter((r) => rows.get(r.email) !== 1);
    expect(
      notOne.map((r) => `${r.email}: ${rows.get(r.email) ?? 0} rows`),
      "submissions not stored exactly once",
    ).toEqual([]);
    expect(server.exit(), crashed()).toBeNull();
    test.info().annotations.push({
      type: "fault run",
      description:
        `${results.length} posts; ${results.length - failed.length} accepted, ${failed.length} answered 503 ` +
        `(${committedAnyway} of them had committed); first accepted post ${firstOk!.doneAt - upAt} ms after the database's return`,
    });
  } finally {
    await sql.end({ timeout: 2 });
  }
});
