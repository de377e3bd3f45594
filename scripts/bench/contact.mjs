// Contact submissions on the no-JS path (the sum answered), against their ceiling
// (scripts/bench-form-ceiling.mjs): a bare node:http handler in a child process that reads
// the same bodies and writes the same rows (the submission, two outbox rows and their two
// mail jobs, one postgres-js transaction, a pool of 10) on the same database. The two take
// turns (site, ceiling, site, ceiling) so that the machine's noise falls on both alike.
// Accepted/s, CPU ms per post, the ratio, and that the rows stored equal the 2xx answers.
import { spawn } from "node:child_process";
import postgres from "postgres";
import { CONNECTIONS, CONTACT_REQUESTS, FORM_CEILING_PORT, base } from "./args.mjs";
import { databaseUrl, scratchDatabaseUrl } from "./database.mjs";
import { formDefaults } from "./forms.mjs";
import { autocannonRun, ratioTo, takeTurns } from "./load.mjs";
import { cpuMsOf } from "./proc.mjs";
import { serverPid } from "./server.mjs";

const ROUNDS = 2;

/** `count` contact posts' bodies; each needs its own signed challenge (a replay fails), so they are fetched first. */
export async function contactBodies(count) {
  const bodies = [];
  for (let i = 0; i < count; i++) {
    const fields = new URLSearchParams([...formDefaults(await (await fetch(`${base}/contact`)).text())]);
    fields.set("first_name", "Bench");
    fields.set("last_name", `Visitor${i}`);
    fields.set("email", `bench${i}@example.com`);
    fields.set("phone", "(810) 555-0150");
    fields.set("details", `Benchmark message ${i}`);
    bodies.push(fields.toString());
  }
  return bodies;
}

/** Starts the form ceiling on the bench's database with a pool of `pool`; resolves with its process once it says it listens. */
async function startFormCeiling(dbUrl, pool) {
  const ceilingServer = spawn(
    process.execPath,
    ["scripts/bench-form-ceiling.mjs", String(FORM_CEILING_PORT), dbUrl, String(pool)],
    {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  process.on("exit", () => ceilingServer.kill("SIGTERM"));
  await new Promise((resolve, reject) => {
    ceilingServer.once("message", resolve);
    ceilingServer.once("exit", () => reject(new Error("the form ceiling did not start")));
  });
  return ceilingServer;
}

/**
 * The site's mail goes out while it answers; what is still queued when a round ends is sent
 * before the ceiling's round starts (so that work cannot slow the ceiling), and its CPU is the
 * site's: CPU ms per post counts the mail delivery too, the rate counts the posts answered.
 */
async function drainSiteMail(sql, round) {
  const cpuBefore = cpuMsOf(serverPid());
  const started = performance.now();
  for (let i = 0; i < 1200; i++) {
    const [{ waiting }] =
      await sql`select count(*)::int as waiting from pgboss.job where name = 'mail' and state < 'completed'`;
    if (waiting === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  round.cpuMs += cpuMsOf(serverPid()) - cpuBefore;
  round.drainSeconds = (performance.now() - started) / 1000;
  return round;
}

/** Posts each body once to `url` (50 at a time); the answers and the CPU of process `pid` they cost. */
async function postContacts(url, list, pid) {
  let next = 0;
  let lastAnswer = 0;
  const cpuBefore = cpuMsOf(pid);
  const before = performance.now();
  const r = await autocannonRun({
    url,
    connections: Math.min(CONNECTIONS, list.length),
    amount: list.length,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: list[next++ % list.length] }),
        onResponse: () => {
          lastAnswer = performance.now();
        },
      },
    ],
  });
  r.cpuMs = cpuMsOf(pid) - cpuBefore;
  // Up to the last answer: autocannon notices that `amount` is reached only at
  // its next one-second tick, which made this rate jump between whole seconds.
  r.seconds = ((lastAnswer || performance.now()) - before) / 1000;
  return r;
}

/** The rows stored for the posts to `page` (/contact for the site, /ceiling for the ceiling): submissions, outbox rows, jobs. */
async function storedRows(sql, page) {
  try {
    const [c] = await sql`
        select (select count(*)::int from contact_submissions where page = ${page} and email like 'bench%@example.com') as submissions,
               (select count(*)::int from outbox where source_table = 'contact_submissions'
                  and source_id in (select id from contact_submissions where page = ${page})) as mails,
               (select count(*)::int from pgboss.job where name in ('mail', 'bench_ceiling') and (data->>'outboxId')::int in (
                  select id from outbox where source_table = 'contact_submissions'
                  and source_id in (select id from contact_submissions where page = ${page}))) as jobs`;
    return c;
  } catch (e) {
    return { submissions: `query failed: ${e.message}`, mails: NaN, jobs: NaN };
  }
}

/** One side's rounds summed up, with the rows it stored. */
function summary(runs, rows) {
  const ok = runs.reduce((n, r) => n + r["2xx"], 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const cpu = runs.reduce((n, r) => n + r.cpuMs, 0);
  const done = runs.reduce((n, r) => n + r["2xx"] + r.non2xx, 0);
  return {
    "accepted/s": Math.round(ok / seconds),
    "2xx": ok,
    "non-2xx": runs.reduce((n, r) => n + r.non2xx, 0),
    stored: rows.submissions,
    "outbox rows": rows.mails,
    "mail jobs": rows.jobs,
    "rows = 2xx": rows.submissions === ok && rows.mails === 2 * ok && rows.jobs === 2 * ok,
    "p50 ms": Math.max(...runs.map((r) => r.latency.p50)),
    "p99 ms": Math.max(...runs.map((r) => r.latency.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    "server CPU ms/req": Number((cpu / done).toFixed(2)),
    "accepted/s per round": runs.map((r) => Math.round(r["2xx"] / r.seconds)),
    "mail sent after the round, s": runs.map((r) => (r.drainSeconds === undefined ? "-" : r.drainSeconds.toFixed(1))),
  };
}

/** The site's and the ceiling's rows of the printed table. */
function contactRows(contact, formCeiling, ceilingPool) {
  return [
    ["contact POST (no-JS)", contact],
    [`form ceiling (bare handler, pool ${ceilingPool})`, formCeiling],
  ].map(([name, r]) => ({
    target: name,
    "req/s": r["accepted/s"],
    "p50 ms": r["p50 ms"],
    "p99 ms": r["p99 ms"],
    "non-2xx": r["non-2xx"],
    errors: r.errors,
    "server CPU ms/req": r["server CPU ms/req"],
  }));
}

/**
 * BENCH_CONTACT_REQUESTS posts a round, two rounds each, site and ceiling taking turns.
 * Returns both summaries and their table rows; "skipped" (no rows) when /contact does not answer.
 */
export async function measureContact() {
  const contactPage = await fetch(`${base}/contact`);
  if (!contactPage.ok) return { contact: { note: "skipped" }, formCeiling: { note: "skipped" }, rows: [] };
  const N = CONTACT_REQUESTS;
  const bodies = await contactBodies(N * ROUNDS);
  const dbUrl = databaseUrl();
  // PGlite is one session: its socket runs every connection's statements in it,
  // so transactions from two connections would interleave. One connection there.
  const ceilingPool = scratchDatabaseUrl() ? 10 : 1;
  const ceilingServer = await startFormCeiling(dbUrl, ceilingPool);
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const roundBodies = (round) => bodies.slice(round * N, (round + 1) * N);
  const [site, bare] = await takeTurns(
    ROUNDS,
    async (round) => drainSiteMail(sql, await postContacts(`${base}/contact`, roundBodies(round), serverPid())),
    (round) => postContacts(`http://127.0.0.1:${FORM_CEILING_PORT}/`, roundBodies(round), ceilingServer.pid),
  );
  ceilingServer.kill("SIGTERM");
  const contact = summary(site, await storedRows(sql, "/contact"));
  const formCeiling = { ...summary(bare, await storedRows(sql, "/ceiling")), pool: ceilingPool };
  await sql.end();
  contact["ratio to ceiling"] = ratioTo(contact["accepted/s"], formCeiling["accepted/s"]);
  return { contact, formCeiling, rows: contactRows(contact, formCeiling, ceilingPool) };
}
