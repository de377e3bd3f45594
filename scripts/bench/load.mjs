// Load on the server (autocannon), the server CPU it costs, interleaved runs against a
// ceiling, and the ratios and table rows they are reported as.
import autocannon from "autocannon";
import { CONNECTIONS, DURATION } from "./args.mjs";
import { serverCpuMs } from "./proc.mjs";

/** One autocannon run with these options; resolves with its result. */
export function autocannonRun(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** Load on `url`: 50 connections for BENCH_SECONDS, unless `opts` says otherwise. */
export function load(url, opts = {}) {
  return autocannonRun({ url, connections: CONNECTIONS, duration: DURATION, ...opts });
}

/** Runs `work` and returns its result with the server CPU ms it cost per completed request. */
export async function measured(work) {
  const before = serverCpuMs();
  const r = await work();
  const done = r["2xx"] + r.non2xx;
  r.cpuMsPerRequest = done > 0 ? Number(((serverCpuMs() - before) / done).toFixed(2)) : NaN;
  return r;
}

/**
 * Interleaved runs: `turns` times, each of `runs` in order (given the turn's number), so that
 * the machine's noise falls on all alike (site, ceiling, site, ceiling). Returns each run's
 * results, one per turn.
 */
export async function takeTurns(turns, ...runs) {
  const results = runs.map(() => []);
  for (let turn = 0; turn < turns; turn++) {
    for (const [i, run] of runs.entries()) results[i].push(await run(turn));
  }
  return results;
}

/** `a` as a multiple of `b`, to three decimals (a ratio to a ceiling). */
export function ratioTo(a, b) {
  return Number((a / b).toFixed(3));
}

/** A load's row of the printed table. */
export const row = (name, r) => ({
  target: name,
  "req/s": Math.round(r.requests.average),
  "p50 ms": r.latency.p50,
  "p99 ms": r.latency.p99,
  "non-2xx": r.non2xx,
  errors: r.errors,
  "server CPU ms/req": r.cpuMsPerRequest ?? "n/a (another process)",
});
