#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile, simulated throttling) in Debian's
// Chromium over a page of every kind the site map has (issue 31 item 6) of the
// production build, on a scratch embedded database. Prints the four scores per page and exits 1 when
// a page is below the budget; for such a page it also prints the audits that
// cost the points (with their elements or URLs, and the LCP element).
// Environment: BUILD_DIR, LH_PORT, LH_DATA_DIR, LH_PAGES (comma-separated paths,
// or "sitemap" for every path of /sitemap.xml), LH_RUNS (audits per page, median
// kept; default 3), LH_JSON_DIR (a folder for each page's full Lighthouse JSON).
// The cart and the checkout are audited with one item in the cart (its cookie).
import { spawn, spawnSync, execSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { serverNodeArgs } from "./server-node-args.mjs";

const PORT = Number(process.env.LH_PORT ?? 3150);
const base = `http://localhost:${PORT}`;
// Issue 17's budget. Where the points went and came back: docs/decisions/044-scripts-after-first-paint.md
// (042 and 043 before it). Scores move with the machine's load: LH_RUNS (default 3) keeps each page's median run.
const budget = { performance: 98, accessibility: 100, "best-practices": 100, seo: 100 };
// One page of each kind (issue 31 item 6, docs/decisions/063-every-page-audited.md): the
// content templates (home, a residential and a commercial product page with the quote
// form, an operator page, the plain content pages), the shop's four, and every form,
// the two with a `?type=` both without it (the chooser) and with each type.
const everyKind = [
  "/",
  "/residential-garage-doors",
  "/commercial-sectional-garage-doors",
  "/commercial-openers-trolley-operator",
  "/service-area",
  "/careers",
  "/review",
  "/shop",
  "/product/1",
  "/my-cart",
  "/checkout",
  "/request-quote",
  "/request-quote?type=residential",
  "/request-quote?type=commercial",
  "/request-service",
  "/request-service?type=residential",
  "/request-service?type=commercial",
  "/commercial-schedule-service",
  "/contact",
  "/employment",
  "/discount-signup-2025",
  "/pay-invoice",
];
// Pages that read the cart cookie: audited with an item in the cart, as a buyer sees them.
// They are a visitor's own pages and say `robots: noindex` on purpose, so SEO's
// is-crawlable (which fails on exactly that) is left out of their score.
const cartPages = new Set(["/my-cart", "/checkout"]);

const buildDir = process.env.BUILD_DIR ?? "build";
if (!existsSync(`${buildDir}/server/index.js`) || process.argv.includes("--build")) {
  const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(1);
}
const dataDir = process.env.LH_DATA_DIR ?? ".data-lighthouse";
rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, [...serverNodeArgs, "server.mjs", `${buildDir}/server/index.js`], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DB_SOCKET_PORT: "0",
    SITE_URL: base,
    LOG_LEVEL: "warn",
    DATABASE_URL: "",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
// A server that dies at start (e.g. a BUILD_DIR outside the repo cannot find
// node_modules) would otherwise cost minutes of audits that all score 0.
const died = (code) => {
  console.error(`the server exited (${code}) before the audits ended`);
  process.exit(1);
};
server.on("exit", died);
const stop = () => {
  server.off("exit", died);
  server.kill("SIGTERM");
};
process.on("exit", stop);

let up = false;
for (let i = 0; i < 120 && !up; i++) {
  try {
    up = (await fetch(`${base}/healthz`)).ok;
  } catch {}
  if (!up) await new Promise((r) => setTimeout(r, 500));
}
if (!up) {
  console.error(`the server did not answer ${base}/healthz within a minute`);
  process.exit(1);
}

const pages =
  process.env.LH_PAGES === "sitemap"
    ? [...(await (await fetch(`${base}/sitemap.xml`)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (m) => new URL(m[1]).pathname,
      )
    : (process.env.LH_PAGES?.split(",") ?? everyKind);
// A cart with the first product in it (POST /api/store/cart/add, SPEC §7): its cookie.
const cartAdd = await fetch(`${base}/api/store/cart/add`, {
  method: "POST",
  headers: { "content-type": "application/json", origin: base },
  body: JSON.stringify({ inventory_id: 1 }),
});
const cartCookie = cartAdd.headers.get("set-cookie")?.split(";")[0];
if (!cartAdd.ok || !cartCookie) console.warn(`no cart cookie (${cartAdd.status}): the cart pages are audited empty`);

const chromePath = process.env.CHROMIUM_PATH ?? execSync("command -v chromium", { shell: "/bin/sh" }).toString().trim();
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
});

const rows = [];
const report = [];

// Simulated scores still move with the machine's load: LH_RUNS=3 (the default) audits
// each page three times and keeps the run with the median performance score. A run whose
// trace could not be recorded (runtimeError, e.g. NO_NAVSTART: "Please run
// Lighthouse again") is repeated once instead of being scored 0.
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 3));
async function audit(url, more) {
  const results = [];
  for (let i = 0, retried = false; i < runs; i++) {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", ...more });
    if (result.lhr.runtimeError && !retried) {
      console.warn(`${url}: ${result.lhr.runtimeError.code}, running it again`);
      retried = true;
      i--;
      continue;
    }
    results.push(result);
  }
  results.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
  return results[Math.floor((results.length - 1) / 2)];
}
let failed = false;

/** The audits that cost points in the categories below budget: id, title, value, and for
 * performance the LCP element and the audit's weight, so the next person sees the cause. */
function failingAudits(lhr, categories) {
  const lines = [];
  for (const cat of categories) {
    for (const ref of lhr.categories[cat]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (
        !a ||
        a.score === null ||
        a.score >= 1 ||
        a.scoreDisplayMode === "notApplicable" ||
        a.scoreDisplayMode === "informative"
      )
        continue;
      if (cat !== "performance" && ref.weight === 0) continue;
      lines.push(
        `  [${cat}] ${a.id} (score ${a.score}${ref.weight ? `, weight ${ref.weight}` : ""})${a.displayValue ? ` ${a.displayValue}` : ""}: ${a.title}`,
      );
      for (const item of (a.details?.items ?? []).slice(0, 5)) {
        const node = item.node ?? item.element;
        const what = node?.snippet ?? node?.selector ?? item.url ?? item.source?.url ?? "";
        if (what) lines.push(`      ${String(what).slice(0, 160)}`);
      }
    }
  }
  const lcp = lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node;
  if (lcp) lines.push(`  LCP element: ${lcp.snippet?.slice(0, 160)}`);
  return lines;
}
try {
  for (const path of pages) {
    const headers = cartPages.has(path) && cartCookie ? { Cookie: cartCookie } : undefined;
    // Warm the server (and its page cache) once, as a returning visitor's CDN would be.
    await fetch(base + path, { headers }).catch(() => {});
    const result = await audit(
      base + path,
      cartPages.has(path) ? { extraHeaders: headers, skipAudits: ["is-crawlable"] } : {},
    );
    const cats = result.lhr.categories;
    const scores = Object.fromEntries(Object.keys(budget).map((k) => [k, Math.round((cats[k]?.score ?? 0) * 100)]));
    const misses = Object.entries(budget)
      .filter(([k, min]) => scores[k] < min)
      .map(([k]) => k);
    if (misses.length) {
      failed = true;
      report.push(`\n${path} below budget (${misses.join(", ")}):`);
      report.push(...failingAudits(result.lhr, misses));
    }
    if (process.env.LH_JSON_DIR) {
      mkdirSync(process.env.LH_JSON_DIR, { recursive: true });
      writeFileSync(
        `${process.env.LH_JSON_DIR}/${path.replace(/[^a-z0-9]+/gi, "_") || "_"}.json`,
        JSON.stringify(result.lhr),
      );
    }
    rows.push({
      page: path,
      ...scores,
      lcp: result.lhr.audits["largest-contentful-paint"]?.displayValue,
      tbt: result.lhr.audits["total-blocking-time"]?.displayValue,
      ok: misses.length ? `below: ${misses.join(", ")}` : "ok",
    });
  }
} finally {
  await chrome.kill();
  stop();
}
// A markdown table, to paste into a note as it is.
const columns = ["page", ...Object.keys(budget), "lcp", "tbt", "ok"];
console.log(`\n| ${columns.join(" | ")} |\n|${columns.map(() => " --- |").join("")}`);
for (const r of rows) console.log(`| ${columns.map((c) => (c === "page" ? `\`${r[c]}\`` : r[c])).join(" | ")} |`);
if (report.length) console.log(report.join("\n"));
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/lighthouse.json", JSON.stringify(rows, null, 2));
console.log(
  `budget: Performance ≥ ${budget.performance}, Accessibility ${budget.accessibility}, Best Practices ≥ ${budget["best-practices"]}, SEO ${budget.seo}`,
);
process.exit(failed ? 1 : 0);
