#!/usr/bin/env node
// `npm test`: everything, in order, stopping at the first failure:
//   0. lint (ESLint) and format (Prettier --check)
//   1. typecheck (react-router typegen + tsc)
//   2. vitest (unit + integration) on PGlite, and again on the PostgreSQL
//      server when DATABASE_URL is set (each test file gets its own database)
//   3. the production build, then Playwright end-to-end in Debian's Chromium
//      (on a scratch embedded database, or a fresh database on DATABASE_URL's server)
//   4. the three-engine smoke suite: the main flows again in Firefox ESR and
//      WebKitGTK (tests/engines), on a server and a scratch database of its own
// Ends with the tests that passed only on a retry ("flaky: …", Playwright's
// retries; vitest runs without any) and one summary line "N passed, N failed".
import { execSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = new URL("..", import.meta.url).pathname;
process.chdir(root);
const resultsDir = path.join(root, "test-results", "summary");
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
/** "<file> › <title path>" of every test that passed only on a retry. */
const flaky = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

function finish(ok) {
  console.log(`\nflaky: ${flaky.length ? `${flaky.length} passed only on a retry: ${flaky.join("; ")}` : "0"}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

function ensureChromium() {
  const found = () => {
    try {
      return execSync("command -v chromium", { shell: "/bin/sh" }).toString().trim();
    } catch {
      return "";
    }
  };
  if (process.env.CHROMIUM_PATH || found()) return;
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium with apt-get…");
    const ok =
      run("apt-get update", "apt-get", ["update", "-qq"]) &&
      run("apt-get install chromium", "apt-get", ["install", "-y", "-qq", "chromium"], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    if (ok && found()) return;
  }
  console.error("Chromium is required for the end-to-end tests. Install it with: sudo apt-get install -y chromium");
  finish(false);
}

// The W3C HTML validator (vnu-jar, tests/e2e/quality/html-valid.spec.ts) runs on
// the system's Java. Debian's, installed like Chromium: never the runtime that
// vnu-jar would otherwise download for itself.
function ensureJava() {
  const found = () => spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
  if (found()) return;
  if (process.getuid?.() === 0) {
    console.log("Java is missing: installing Debian's default-jre-headless with apt-get…");
    // Slim images leave out this folder, and a JRE install step that links its man pages there fails without it.
    mkdirSync("/usr/share/man/man1", { recursive: true });
    const ok =
      run("apt-get update", "apt-get", ["update", "-qq"]) &&
      run("apt-get install default-jre-headless", "apt-get", ["install", "-y", "-qq", "default-jre-headless"], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    if (ok && found()) return;
  }
  console.error(
    "Java is required for the HTML validator of the end-to-end tests. Install it with: sudo apt-get install -y default-jre-headless",
  );
  finish(false);
}

// The Authorize.net request bodies are validated against its schema by xmllint
// (app/payments/authorizenet-schema.server.test.ts, which fails without it): Debian's
// libxml2-utils, installed like Java.
function ensureXmllint() {
  const found = () => spawnSync("xmllint", ["--version"], { stdio: "ignore" }).status === 0;
  if (found()) return;
  if (process.getuid?.() === 0) {
    console.log("xmllint is missing: installing Debian's libxml2-utils with apt-get…");
    const ok =
      run("apt-get update", "apt-get", ["update", "-qq"]) &&
      run("apt-get install libxml2-utils", "apt-get", ["install", "-y", "-qq", "libxml2-utils"], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    if (ok && found()) return;
  }
  console.error(
    "xmllint is required to validate the Authorize.net requests against its schema. Install it with: sudo apt-get install -y libxml2-utils",
  );
  finish(false);
}

// The database fault test (tests/e2e/quality/db-fault.spec.ts) stops and starts a
// PostgreSQL cluster of its own, made with Debian's server binaries (initdb,
// pg_ctl); the shared server that DATABASE_URL names is never touched.
function ensurePostgresBinaries() {
  const found = () => {
    try {
      return readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`));
    } catch {
      return false;
    }
  };
  if (found()) return;
  if (process.getuid?.() === 0) {
    console.log("The PostgreSQL server binaries are missing: installing Debian's postgresql with apt-get…");
    const ok =
      run("apt-get update", "apt-get", ["update", "-qq"]) &&
      run("apt-get install postgresql", "apt-get", ["install", "-y", "-qq", "postgresql"], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    if (ok && found()) return;
  }
  console.error(
    "The database fault test needs the PostgreSQL server binaries (initdb, pg_ctl). Install them with: sudo apt-get install -y postgresql",
  );
  finish(false);
}

// The three-engine smoke suite (tests/engines/run.ts) drives Debian's Firefox ESR
// (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver, in an Xvfb
// display): installed like Chromium, never a browser build of a package's own.
function ensureEngines() {
  const missing = () =>
    [
      ["firefox-esr", "firefox-esr"],
      ["WebKitWebDriver", "webkit2gtk-driver"],
      ["Xvfb", "xvfb"],
    ]
      .filter(([command]) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status !== 0)
      .map(([, pkg]) => pkg);
  let packages = missing();
  if (packages.length === 0) return;
  if (process.getuid?.() === 0) {
    console.log(`The other engines are missing: installing Debian's ${packages.join(", ")} with apt-get…`);
    const ok =
      run("apt-get update", "apt-get", ["update", "-qq"]) &&
      run(`apt-get install ${packages.join(" ")}`, "apt-get", ["install", "-y", "-qq", ...packages], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    packages = missing();
    if (ok && packages.length === 0) return;
  }
  console.error(
    `Firefox ESR and WebKitGTK are required for the three-engine smoke suite. Install them with: sudo apt-get install -y ${packages.join(" ")}`,
  );
  finish(false);
}

function enginesCounts(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.passed ?? 0;
  failed += r.failed ?? 0;
}

/** A fresh database on DATABASE_URL's server for a suite's own server; undefined without DATABASE_URL. */
async function freshDatabase(prefix) {
  if (!serverUrl) return undefined;
  const { default: postgres } = await import("postgres");
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabase(name) {
  if (!name) return;
  const { default: postgres } = await import("postgres");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
  await admin.end();
}

function vitestCounts(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
}

function playwrightCounts(file) {
  if (!existsSync(file)) return;
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
  failed += r.stats?.unexpected ?? 0;
  // Which ones: Playwright marks a test "flaky" when it failed and then passed on a retry.
  const testDir = r.config?.rootDir ?? path.join(root, "tests", "e2e");
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "flaky")
          flaky.push(
            [path.relative(root, path.resolve(testDir, spec.file)), ...titles, spec.title].join(" › ") +
              (t.projectName && t.projectName !== "chromium" ? ` [${t.projectName}]` : ""),
          );
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top-level suites are the files themselves: their titles are the file names.
  for (const s of r.suites ?? []) walk(s, []);
}

const npx = "npx";

// 0. Lint and format: the same rules for every file (eslint.config.js, .prettierrc.json).
if (
  !run("lint", npx, ["eslint", "."]) ||
  !run("format check", npx, ["prettier", "--check", ".", "--log-level", "warn"])
) {
  failed += 1;
  finish(false);
}
passed += 1;

// 1. Types
if (!run("typecheck", npx, ["react-router", "typegen"]) || !run("tsc", npx, ["tsc"])) {
  failed += 1;
  finish(false);
}
passed += 1;

// 2. Unit + integration: PGlite always, the PostgreSQL server too when configured.
ensureXmllint();
const serverUrl = process.env.DATABASE_URL;
const vitestRuns = [["PGlite", { DATABASE_URL: "" }]];
if (serverUrl) vitestRuns.push(["PostgreSQL server", { DATABASE_URL: serverUrl }]);
for (const [name, env] of vitestRuns) {
  const out = path.join(resultsDir, `vitest-${name.replace(/\W+/g, "-")}.json`);
  const ok = run(
    `vitest on ${name}`,
    npx,
    // No retries: vitest's JSON report does not say which test passed only on a retry, so a
    // vitest flake is a failure (the "flaky:" line is Playwright's).
    ["vitest", "run", "--retry=0", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
    env,
  );
  vitestCounts(out);
  if (!ok) {
    if (failed === 0) failed += 1;
    finish(false);
  }
}

// 3. End-to-end against the production build.
ensureChromium();
ensureJava();
ensurePostgresBinaries();
ensureEngines();
if (!run("production build", npx, ["react-router", "build"])) {
  failed += 1;
  finish(false);
}
const e2eDb = await freshDatabase("e2e");
const e2eEnv = { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(resultsDir, "playwright.json") };
if (e2eDb) e2eEnv.E2E_DATABASE_URL = e2eDb.url;
const e2eOk = run("playwright", npx, ["playwright", "test", "--reporter=list,json"], { ...e2eEnv, DATABASE_URL: "" });
playwrightCounts(e2eEnv.PLAYWRIGHT_JSON_OUTPUT_NAME);
await dropDatabase(e2eDb?.name);
// A run that failed without a failing test (e.g. the server did not start) still counts as a failure.
if (!e2eOk && failed === 0) failed += 1;

// 4. The same build in Firefox ESR and WebKitGTK, each flow once (no retry: a flaky step fails).
const enginesDb = await freshDatabase("engines");
const enginesResults = path.join(resultsDir, "engines.json");
const enginesOk = run("three engines (Firefox ESR, WebKitGTK)", npx, ["tsx", "tests/engines/run.ts"], {
  ENGINES_RESULTS: enginesResults,
  ...(enginesDb ? { ENGINES_DATABASE_URL: enginesDb.url } : {}),
  DATABASE_URL: "",
});
const before = failed;
enginesCounts(enginesResults);
await dropDatabase(enginesDb?.name);
if (!enginesOk && failed === before) failed += 1;
finish(e2eOk && enginesOk);
