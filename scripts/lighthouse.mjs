#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile, simulated throttling) in Debian's
// Chromium over a few representative pages of the production build, on a
// scratch embedded database. Prints the four scores per page and exits 1 when
// a page is below the budget.
import { spawn, spawnSync, execSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const PORT = Number(process.env.LH_PORT ?? 3150);
const base = `http://localhost:${PORT}`;
const budget = { performance: 95, accessibility: 100, "best-practices": 95, seo: 100 };
const pages = (process.env.LH_PAGES ?? "/,/shop,/product/1,/request-service?type=residential,/service-area").split(",");

const buildDir = process.env.BUILD_DIR ?? "build";
if (!existsSync(`${buildDir}/server/index.js`) || process.argv.includes("--build")) {
  const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(1);
}
const dataDir = process.env.LH_DATA_DIR ?? ".data-lighthouse";
rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ["server.mjs", `${buildDir}/server/index.js`], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(PORT), DATA_DIR: dataDir, DB_SOCKET_PORT: "0", SITE_URL: base, LOG_LEVEL: "warn", DATABASE_URL: "" },
  stdio: ["ignore", "ignore", "inherit"],
});
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);

for (let i = 0; i < 120; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 500));
}

const chromePath = process.env.CHROMIUM_PATH ?? execSync("command -v chromium", { shell: "/bin/sh" }).toString().trim();
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});

const rows = [];
let failed = false;
try {
  for (const path of pages) {
    // Warm the server (and its page cache) once, as a returning visitor's CDN would be.
    await fetch(base + path).catch(() => {});
    const result = await lighthouse(base + path, { port: chrome.port, output: "json", logLevel: "error" });
    const cats = result.lhr.categories;
    const scores = Object.fromEntries(Object.keys(budget).map((k) => [k, Math.round((cats[k]?.score ?? 0) * 100)]));
    const misses = Object.entries(budget).filter(([k, min]) => scores[k] < min).map(([k]) => k);
    if (misses.length) failed = true;
    rows.push({ page: path, ...scores, lcp: result.lhr.audits["largest-contentful-paint"]?.displayValue, ok: misses.length ? `below: ${misses.join(", ")}` : "ok" });
  }
} finally {
  await chrome.kill();
  stop();
}
console.table(rows);
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/lighthouse.json", JSON.stringify(rows, null, 2));
console.log(`budget: Performance ≥ ${budget.performance}, Accessibility ${budget.accessibility}, Best Practices ≥ ${budget["best-practices"]}, SEO ${budget.seo}`);
process.exit(failed ? 1 : 0);
