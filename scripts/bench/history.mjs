// `--history` (issue 39 item 4): the site at ten years against the site on an empty database. Two
// rounds, each on its own scratch database on DATABASE_URL's server: "empty" (one record of each
// kind, so that every page has one to show) and "history" (history-data.mjs at
// BENCH_HISTORY_SCALE). Each round starts the server once to seed its catalogue and make pg-boss's
// schema, loads its rows with the server stopped, then measures every page kind and post
// sequentially (median and p90 of the best of three blocks of 50 requests), stops the server,
// leaves a few ledger rows open for the reconciler and runs one round of the background jobs with
// each statement timed (history-jobs.ts). Prints both side by side and every background statement
// over 20 ms with its plan, writes bench-results/history.json, and exits 1 when a page or post is
// over 1.2× its empty figure (or answers with an error) or a background statement is over 20 ms.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { CLIENT_IP_HEADER, HISTORY_SCALE, base, serverUrl } from "./args.mjs";
import { contactBodies } from "./contact.mjs";
import { createScratchDatabase, dropBenchDatabase, scratchDatabaseUrl } from "./database.mjs";
import { bookingToken, loadHistory, loadOpenRows, orderToken } from "./history-data.mjs";
import { gitCommit, writeResult } from "./results.mjs";
import { serverEnv, startServer, stopServerAndWait } from "./server.mjs";

/** Requests per block of a measure (sequential, after three to warm), and blocks per measure. */
const REQUESTS = 50;
const BLOCKS = 3;
/** Ms the server is left after its start: its first housekeeping round runs then, not under the measures. */
const SETTLE_MS = 5_000;
/** A page or post over this multiple of its empty figure fails. */
const MAX_RATIO = 1.2;
/** A background statement over this (its EXPLAIN ANALYZE execution time) fails. */
const MAX_STATEMENT_MS = 20;

const scratch = mkdtempSync(path.join(tmpdir(), "bench-history-"));

/** Runs history-jobs.ts with tsx on the scratch database; returns what it wrote. */
function runJobs(...args) {
  const out = path.join(scratch, `${args[0]}.json`);
  const r = spawnSync("npx", ["tsx", "scripts/bench/history-jobs.ts", out, ...args.map(String)], {
    env: { ...serverEnv(), DATABASE_URL: scratchDatabaseUrl() },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`history-jobs.ts ${args[0]} failed (${r.status})`);
  return JSON.parse(readFileSync(out, "utf8"));
}

/** The `q` quantile of sorted `ms`, to a tenth of a ms. */
const quantile = (ms, q) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1));

/** `request(i)` for i in [from, from + REQUESTS), in turn; the sorted ms and the statuses seen. */
async function block(request, from) {
  const ms = [];
  const statuses = new Set();
  for (let i = from; i < from + REQUESTS; i++) {
    const started = performance.now();
    const r = await request(i);
    await r.arrayBuffer();
    ms.push(performance.now() - started);
    statuses.add(r.status);
  }
  return { ms: ms.sort((a, b) => a - b), statuses };
}

/**
 * `request(i)` three times to warm, then BLOCKS blocks of REQUESTS in turn; the median and p90 ms of
 * the block with the lowest median (a block another process slowed is set aside), and the statuses.
 */
async function timed(request) {
  for (let i = 0; i < 3; i++) await (await request(i)).arrayBuffer();
  const blocks = [];
  for (let b = 0; b < BLOCKS; b++) blocks.push(await block(request, 3 + b * REQUESTS));
  const best = blocks.reduce((a, b) => (quantile(b.ms, 0.5) < quantile(a.ms, 0.5) ? b : a));
  const statuses = new Set(blocks.flatMap((b) => [...b.statuses]));
  return { median: quantile(best.ms, 0.5), p90: quantile(best.ms, 0.9), statuses: [...statuses].join(" ") };
}

/** The first product's id in the catalogue (1 when it cannot be read). */
async function firstProductId() {
  try {
    const list = await (await fetch(`${base}/api/store/inventory/list`)).json();
    return list[0]?.id ?? 1;
  } catch {
    return 1;
  }
}

/** Every page kind and post against the running server: name → { median, p90, statuses }. */
async function measureSite(ids, receipts) {
  const product = await firstProductId();
  const get = (p) => () => fetch(base + p, { redirect: "manual" });
  const pages = [
    ["home /", "/"],
    ["content /about-us", "/about-us"],
    ["/shop", "/shop"],
    [`/product/${product}`, `/product/${product}`],
    ["/contact", "/contact"],
    ["/request-service?type=residential", "/request-service?type=residential"],
    ["/booking/{token}", `/booking/${bookingToken(ids.bookingPayment)}`],
    ["/order/{token}", `/order/${orderToken(ids.order)}`],
    ["booking receipt", receipts.service],
    ["invoice receipt", receipts.invoice],
  ];
  const results = {};
  for (const [name, p] of pages) results[name] = await timed(get(p));
  const bodies = await contactBodies(BLOCKS * REQUESTS + 3);
  const form = { "content-type": "application/x-www-form-urlencoded", origin: base };
  results["POST /contact (no JS)"] = await timed((i) =>
    fetch(`${base}/contact`, { method: "POST", headers: form, body: bodies[i], redirect: "manual" }),
  );
  // Each add a new visitor's (a new cart, its own client IP): the cart's per-visitor limit stays out of it.
  const json = (i) => ({
    "content-type": "application/json",
    origin: base,
    [CLIENT_IP_HEADER]: `10.77.${i >> 8}.${i & 255}`,
  });
  const cartAdd = JSON.stringify({ inventory_id: product, quantity: 1 });
  results["POST /api/store/cart/add"] = await timed((i) =>
    fetch(`${base}/api/store/cart/add`, { method: "POST", headers: json(i), body: cartAdd }),
  );
  return results;
}

/** Loads the round's rows into its scratch database (the server seeded it first), with the server stopped. */
async function prepareDatabase(scale) {
  await createScratchDatabase();
  await startServer();
  await stopServerAndWait();
  const started = performance.now();
  const loaded = await withDatabase((sql) => loadHistory(sql, scale));
  return { ...loaded, loadSeconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** `work(sql)` on a connection of its own to the scratch database, closed after. */
async function withDatabase(work) {
  const sql = postgres(scratchDatabaseUrl(), { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** One round on a new scratch database with `scale` of the ten years (0: one record of each). */
async function round(label, scale) {
  console.log(`${label}: loading ${scale ? `${scale} × ten years` : "one record of each"}…`);
  const loaded = await prepareDatabase(scale);
  try {
    const receipts = runJobs("receipts", loaded.bookingPayment, loaded.invoicePayment);
    await startServer();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const site = await measureSite(loaded, receipts);
    await stopServerAndWait();
    await withDatabase((sql) => loadOpenRows(sql, loaded.counts.bookings));
    console.log(`${label}: one round of the background jobs…`);
    const jobs = runJobs("round", loaded.bookingPayment);
    return { label, scale, counts: loaded.counts, loadSeconds: loaded.loadSeconds, site, jobs };
  } finally {
    await stopServerAndWait();
    await dropBenchDatabase();
  }
}

/** The side-by-side rows: each page and post's empty and history figures and their ratio, met or not (nor when any answer was an error). */
function siteRows(empty, history) {
  return Object.keys(history.site).map((name) => {
    const e = empty.site[name];
    const h = history.site[name];
    const ratio = Number((h.median / e.median).toFixed(2));
    return {
      measure: name,
      "empty p50 ms": e.median,
      "history p50 ms": h.median,
      "empty p90 ms": e.p90,
      "history p90 ms": h.p90,
      status: e.statuses === h.statuses ? h.statuses : `${e.statuses} / ${h.statuses}`,
      ratio,
      // An error answer is not a figure to compare: the measure fails whatever its ratio.
      met: ratio <= MAX_RATIO && !/[45]\d\d/.test(h.statuses + e.statuses) ? "yes" : "NO",
    };
  });
}

/** The slowest background statement of a round, and how many of its statements were over 20 ms. */
function slowest(jobs) {
  const timed = jobs.statements.filter((s) => s.ms !== null);
  return {
    statements: jobs.statements.length,
    maxMs: Math.max(0, ...timed.map((s) => s.ms)),
    over: timed.filter((s) => s.ms > MAX_STATEMENT_MS),
  };
}

/** Prints the tables and the slow statements; returns whether every target was met. */
function printHistory(empty, history) {
  const rows = siteRows(empty, history);
  const [e, h] = [slowest(empty.jobs), slowest(history.jobs)];
  rows.push({
    measure: "background statements (max EXPLAIN ANALYZE ms)",
    "empty p50 ms": e.maxMs,
    "history p50 ms": h.maxMs,
    status: `${h.statements} statements, ${h.over.length} over ${MAX_STATEMENT_MS} ms`,
    met: h.over.length === 0 ? "yes" : "NO",
  });
  console.log(
    `\nThe site at ${HISTORY_SCALE} × ten years against an empty database (best of ${BLOCKS} blocks of ${REQUESTS} requests in turn)`,
  );
  console.table(rows);
  console.log(`\nBackground statements at history (one round; execution ms of EXPLAIN ANALYZE, rolled back)`);
  console.table(
    history.jobs.statements.map((s) => ({
      step: s.step,
      ms: s.ms ?? `not timed: ${s.error}`,
      runs: s.runs,
      statement: s.sql.replace(/\s+/g, " ").slice(0, 90),
    })),
  );
  for (const s of h.over)
    console.log(
      `\nOVER ${MAX_STATEMENT_MS} ms: [${s.step}] ${s.ms} ms\n  ${s.sql.replace(/\s+/g, " ")}\n  plan: ${s.plan.join("; ")}`,
    );
  return rows.every((r) => r.met === "yes");
}

/** `--history`: both rounds, the tables, bench-results/history.json; exits 1 unless every target was met. */
export async function historyOnly() {
  if (!serverUrl) {
    console.error("--history needs DATABASE_URL: a PostgreSQL server to make its two scratch databases on.");
    process.exit(1);
  }
  const empty = await round("empty", 0);
  const history = await round("history", HISTORY_SCALE);
  const met = printHistory(empty, history);
  writeResult("history.json", {
    at: new Date().toISOString(),
    commit: gitCommit(),
    scale: HISTORY_SCALE,
    maxRatio: MAX_RATIO,
    maxStatementMs: MAX_STATEMENT_MS,
    empty,
    history,
    met,
  });
  process.exit(met ? 0 : 1);
}
