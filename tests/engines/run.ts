/**
 * The three-engine smoke suite (issue 38 item 9, DECISIONS 39, docs/decisions/070-three-engines.md):
 * the site's main flows, with JavaScript on, at 390 px, in Firefox ESR (puppeteer-core over WebDriver
 * BiDi) and in WebKitGTK (webdriverio over WebKitWebDriver, in an Xvfb display); Chromium's are the
 * Playwright suite's. Against the production build (`npx react-router build` first), on a server of
 * its own (scripts/e2e-server.mjs) with a scratch database: PGlite in ENGINES_DATA_DIR
 * (.data-engines), or ENGINES_DATABASE_URL.
 *
 *   npx tsx tests/engines/run.ts            both engines, side by side
 *   npx tsx tests/engines/run.ts webkit     one of them
 *
 * Ports: ENGINES_PORT (3120) for the site, ENGINES_DB_SOCKET_PORT (5456) for its database share,
 * ENGINES_DRIVER_PORT (3121) for WebKitWebDriver. Each flow is one test: no retry (a flaky step is
 * a failing step). Screenshots of every run, and of each failure, go to test-results/engines/<engine>/;
 * the counts to ENGINES_RESULTS (test-results/engines/results.json), which scripts/test.mjs adds to its own.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { e2eServerEnv } from "../e2e/support/server";
import type { Driver } from "./driver";
import { FIREFOX_PATH, firefox } from "./firefox";
import type { Flow, FlowContext } from "./flow";
import { booking, refusedBooking } from "./flows/booking";
import { contact, invoice } from "./flows/forms";
import { shell } from "./flows/shell";
import { shop } from "./flows/shop";
import { pages } from "./shots";
import { MINIBROWSER, WEBKIT_DRIVER, webkit } from "./webkit";

const root = path.resolve(import.meta.dirname, "../..");
process.chdir(root);

const PORT = Number(process.env.ENGINES_PORT ?? 3120);
const DB_SOCKET_PORT = Number(process.env.ENGINES_DB_SOCKET_PORT ?? 5456);
const DRIVER_PORT = Number(process.env.ENGINES_DRIVER_PORT ?? 3121);
const DATA_DIR = process.env.ENGINES_DATA_DIR ?? ".data-engines";
const OUT = path.resolve("test-results/engines");
const RESULTS = path.resolve(process.env.ENGINES_RESULTS ?? path.join(OUT, "results.json"));
const BASE_URL = `http://localhost:${PORT}`;
/** One flow's limit: a whole booking with two payments takes some 20 s here. */
const FLOW_TIMEOUT_MS = 120_000;

/**
 * Every flow, in the order each engine runs them: the refused booking before the paid one (after a
 * payment the form's page says "You paid with this form a moment ago", which its screenshot is not
 * about); the shell's last (it leaves the colour scheme as it found it).
 */
const FLOWS: Flow[] = [refusedBooking, booking, contact, invoice, shop, pages, shell];

const ENGINES: Record<"firefox" | "webkit", { start: () => Promise<Driver>; needs: string[] }> = {
  firefox: { start: () => firefox(BASE_URL), needs: [FIREFOX_PATH] },
  webkit: {
    start: () => webkit(BASE_URL, DRIVER_PORT, path.join(OUT, "webkit", "driver.log")),
    needs: [WEBKIT_DRIVER, MINIBROWSER],
  },
};

type Result = { engine: string; flow: string; ok: boolean; ms: number; error?: string };

const chosen = (
  process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(ENGINES)
) as (keyof typeof ENGINES)[];
for (const name of chosen) {
  if (!(name in ENGINES)) {
    console.error(`No engine "${name}": firefox or webkit.`);
    process.exit(2);
  }
  const missing = ENGINES[name].needs.filter((file) => !existsSync(file));
  if (missing.length) {
    console.error(
      `${name} needs ${missing.join(", ")}. Install them with: sudo apt-get install -y firefox-esr webkit2gtk-driver xvfb`,
    );
    process.exit(2);
  }
}
if (!existsSync("build/server/index.js")) {
  console.error("No production build: run `npx react-router build` first.");
  process.exit(2);
}

rmSync(OUT, { recursive: true, force: true });
for (const name of chosen) mkdirSync(path.join(OUT, name), { recursive: true });

/** The production build on its own scratch database, as Playwright's (scripts/e2e-server.mjs). */
async function startServer() {
  // Another server on the port would answer for this one.
  if (await fetch(`${BASE_URL}/healthz`).catch(() => null))
    throw new Error(`${BASE_URL} already answers: another server holds port ${PORT} (set ENGINES_PORT)`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...e2eServerEnv(),
    PORT: String(PORT),
    SITE_URL: BASE_URL,
    DATA_DIR,
    DB_SOCKET_PORT: String(DB_SOCKET_PORT),
    DATABASE_URL: process.env.ENGINES_DATABASE_URL ?? "",
    E2E_LOG_FILE: path.join(OUT, "server.log"),
  };
  const server = spawn(process.execPath, ["scripts/e2e-server.mjs"], { env, stdio: ["ignore", "inherit", "inherit"] });
  const ended = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  // However the suite ends (a failure, Ctrl+C), the server ends with it (e2e-server.mjs passes the signal on).
  const kill = () => server.kill("SIGTERM");
  process.on("exit", kill);
  const exited = ended.then((code) => {
    throw new Error(`the server exited (${code}) before it answered`);
  });
  const healthy = (async () => {
    for (const end = Date.now() + 120_000; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
      const res = await fetch(`${BASE_URL}/healthz`).catch(() => null);
      if (res?.ok) return;
    }
    throw new Error(`the server did not answer ${BASE_URL}/healthz within 120 s`);
  })();
  try {
    await Promise.race([healthy, exited]);
  } catch (error) {
    kill();
    throw error;
  }
  exited.catch(() => {});
  return {
    stop: async () => {
      kill();
      await ended;
      process.off("exit", kill);
    },
  };
}

function timeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms)),
    ),
  ]);
}

/** With ENGINES_TRACE=1, each call of the driver is logged with the time it took (where a slow flow spends it). */
function traced(d: Driver): Driver {
  if (!process.env.ENGINES_TRACE) return d;
  return new Proxy(d, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const t = Date.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          const what = args
            .map((a) => JSON.stringify(a))
            .join(" ")
            .slice(0, 140);
          console.log(`      [${d.engine}] ${String(key)} ${what} ${Date.now() - t} ms`);
        }
      };
    },
  });
}

/** One engine: its browser at 390 × 844, every flow in turn; a flow that fails leaves its screenshot. */
async function runEngine(name: keyof typeof ENGINES, index: number): Promise<Result[]> {
  const results: Result[] = [];
  const started = Date.now();
  let d: Driver | undefined;
  try {
    d = await ENGINES[name].start();
    await d.setViewport(390, 844);
  } catch (error) {
    await d?.close().catch(() => {});
    console.log(`  ✗ [${name}] the browser did not start: ${String(error)}`);
    return FLOWS.map((flow) => ({
      engine: name,
      flow: flow.name,
      ok: false,
      ms: 0,
      error: "the browser did not start",
    }));
  }
  const driver = traced(d);
  console.log(`  · [${name}] browser ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const flow of FLOWS) {
    const ctx: FlowContext = {
      index,
      tag: `${name}-${randomBytes(4).toString("hex")}`,
      shot: (shotName, target) => driver.screenshot(path.join(OUT, name, `${shotName}.png`), target),
    };
    const t0 = Date.now();
    try {
      await timeout(flow.run(driver, ctx), FLOW_TIMEOUT_MS, flow.name);
      const ms = Date.now() - t0;
      results.push({ engine: name, flow: flow.name, ok: true, ms });
      console.log(`  ✓ [${name}] ${flow.name} (${(ms / 1000).toFixed(1)} s)`);
    } catch (error) {
      const ms = Date.now() - t0;
      const message = error instanceof Error ? error.message : String(error);
      results.push({ engine: name, flow: flow.name, ok: false, ms, error: message });
      console.log(`  ✗ [${name}] ${flow.name} (${(ms / 1000).toFixed(1)} s)\n      ${message}`);
      const file = path.join(OUT, name, `FAILED-${flow.name.replace(/\W+/g, "-")}.png`);
      await timeout(driver.screenshot(file), 15_000, "the failure's screenshot").catch(() => {});
      console.log(`      at ${await driver.url().catch(() => "?")}; screenshot: ${path.relative(root, file)}`);
    }
  }
  await timeout(driver.close(), 15_000, `closing ${name}`).catch(() => {});
  return results;
}

// Ctrl+C or a kill ends the run through process.exit, so the handlers above stop what it started.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));

const t0 = Date.now();
console.log(`Three-engine smoke suite: ${chosen.join(" and ")}, ${FLOWS.length} flows each, at 390 px`);
const server = await startServer();
console.log(`  · server ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
let results: Result[] = [];
try {
  // Side by side: each engine waits on the server and its own renderer most of the time.
  results = (await Promise.all(chosen.map((name) => runEngine(name, Object.keys(ENGINES).indexOf(name))))).flat();
} finally {
  await server.stop();
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
mkdirSync(path.dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, JSON.stringify({ passed, failed, seconds: (Date.now() - t0) / 1000, results }, null, 2));
console.log(
  `\nthree engines: ${passed} of ${results.length} flows passed in ${((Date.now() - t0) / 1000).toFixed(0)} s` +
    (failed
      ? `; failed: ${results
          .filter((r) => !r.ok)
          .map((r) => `[${r.engine}] ${r.flow}`)
          .join("; ")}`
      : ""),
);
process.exit(failed ? 1 : 0);
