#!/usr/bin/env node
// `npm run bench`: a benchmark, not a test. Builds (if needed) and starts the
// production server on a scratch database, then measures on loopback:
//   - home, /shop, /product/{id}: requests/s and p50/p99 latency at 50 connections
//   - the static ceiling: the same home-page bytes from a minimal static server
//   - contact submissions on the no-JS path (signed sum answered), and that
//     stored rows equal 2xx responses (on DATABASE_URL's server when set),
//     taking turns with their ceiling: a bare handler writing the same rows
//     (scripts/bench-form-ceiling.mjs); accepted/s, CPU ms/req, the ratio
//   - peak server RSS, time from start to first 200, gzip JS bytes shipped
//   - the server's RSS during one 10 × 4 MB photo upload (no-JS service
//     form): before, peak, and the growth as a multiple of the bytes sent
//   - 20 buyers checking out at once (POST /api/store/checkout, each with its
//     own cart and client IP, the sandbox's approving card): 2xx answers,
//     orders and approved charges stored, p50/p99 latency
//   - for every load: the server's CPU ms per request (steadier than req/s here)
//   - Interaction to Next Paint at 4× CPU: the booking calendar and the shop's
//     sort, median of 5 loads, ≤ 200 ms or the command exits 1 (`--inp`: this alone)
// Prints a table and writes bench-results/bench.json for comparison.
import autocannon from "autocannon";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import postgres from "postgres";
import { serverNodeArgs } from "./server-node-args.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 3160);
const STATIC_PORT = PORT + 1;
const SOCKET_PORT = PORT + 2;
const FORM_CEILING_PORT = PORT + 3;
const base = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const SOAK = process.env.BENCH_SOAK === "1" || process.argv.includes("--soak");
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CONNECTIONS = 50;
const CLIENT_IP_HEADER = "Fly-Client-IP";

const buildDir = process.env.BUILD_DIR ?? "build";
if (!existsSync(`${buildDir}/server/index.js`) || process.argv.includes("--build")) {
  const r = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(1);
}

// ── Scratch database ────────────────────────────────────────────────
const serverUrl = process.env.DATABASE_URL;
let benchDbUrl;
let benchDbName;
const dataDir = process.env.BENCH_DATA_DIR ?? ".data-bench";
if (serverUrl) {
  benchDbName = `bench_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${benchDbName}"`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${benchDbName}`;
  benchDbUrl = u.toString();
} else {
  rmSync(dataDir, { recursive: true, force: true });
}

// ── Start the server and time the first 200 ─────────────────────────
const started = performance.now();
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
const nodeArgs = [...serverNodeArgs, ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)];
const server = spawn(process.execPath, [...nodeArgs, "server.mjs", `${buildDir}/server/index.js`], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DB_SOCKET_PORT: String(SOCKET_PORT),
    DATABASE_URL: benchDbUrl ?? "",
    SITE_URL: base,
    SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
    ALTCHA_HMAC_KEY: "bench-altcha-hmac-key-0123456789abcdef0123",
    DATA_ENCRYPTION_KEY: "6532652d646174612d656e6372797074696f6e2d6b65792d3031323334353637",
    LOG_LEVEL: "warn",
    // The bench is one client hammering one form: lift the per-IP limits for it
    // (the no-JS sum has a tighter budget of its own) and the minimum fill time.
    RATE_LIMIT_MAX: "1000000",
    RATE_LIMIT_NOJS_MAX: "1000000",
    FORM_MIN_FILL_MS: "0",
    // As on fly.io: the proxy's header names the client, so each bench buyer is its own visitor.
    CLIENT_IP_HEADER: CLIENT_IP_HEADER,
    // Production on DATABASE_URL refuses to start without SMTP unless told that mail to files is meant.
    MAIL_TRANSPORT: process.env.SMTP_URL ? "smtp" : "files",
    PAYMENT_GATEWAY: "sandbox",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
// However the bench ends (a thrown error included), its server goes with it.
process.on("exit", () => server.kill("SIGTERM"));
let firstOk = 0;
for (let i = 0; i < 600; i++) {
  try {
    const r = await fetch(`${base}/`);
    if (r.ok) {
      firstOk = performance.now() - started;
      break;
    }
  } catch {}
  await new Promise((r) => setTimeout(r, 50));
}
if (!firstOk) {
  console.error("server did not answer");
  server.kill();
  await dropBenchDatabase();
  process.exit(1);
}

/** The scratch database on DATABASE_URL's server goes, whatever happened. */
async function dropBenchDatabase() {
  if (!benchDbName) return;
  await new Promise((r) => setTimeout(r, 500));
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${benchDbName}" with (force)`).catch(() => {});
  await admin.end();
}

/** A memory figure of the server from /proc (kB): VmRSS now, VmHWM its peak. */
function serverKb(field) {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
function peakRss() {
  return Math.round(serverKb("VmHWM") / 1024);
}

/**
 * What a page's form sends without JavaScript: every named input's value as
 * rendered (honeypot, its timestamp, the submission key, the sum's signed
 * challenge) and the sum answered, as a visitor would.
 */
function formDefaults(html) {
  // The page's lead form (it carries a submission key), not the first form of the page: the header's
  // colour-mode toggle is a post form too (docs/decisions/062), and its one field answered every
  // form-driven measure here with 400 ("Please complete the CAPTCHA.") since.
  const form =
    [...html.matchAll(/<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/gi)]
      .map((m) => m[1])
      .find((body) => /name="submission_key"/.test(body)) ?? "";
  const fields = new Map();
  for (const [tag] of form.matchAll(/<input\b[^>]*>/gi)) {
    const type = (/\btype="([^"]*)"/i.exec(tag)?.[1] ?? "text").toLowerCase();
    if (["file", "submit", "button"].includes(type)) continue;
    // A box or a choice is sent as a browser sends it: only when checked, "on" without a value.
    const choice = type === "checkbox" || type === "radio";
    if (choice && !/\schecked(?:=""|\s|>|\/)/.test(tag)) continue;
    const name = /\bname="([^"]+)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? (choice ? "on" : "");
    if (name)
      fields.set(
        name,
        value
          .replaceAll("&quot;", '"')
          .replaceAll("&#x27;", "'")
          .replaceAll("&lt;", "<")
          .replaceAll("&gt;", ">")
          .replaceAll("&amp;", "&"),
      );
  }
  const sum = /What is (\d+) \+ (\d+)\?/.exec(html.replace(/<!-- -->/g, ""));
  if (sum) fields.set("captcha_answer", String(Number(sum[1]) + Number(sum[2])));
  return fields;
}

/**
 * The server's CPU time so far (user + system, ms), from /proc. Per request it
 * is steadier than requests/s on a shared machine, where other tenants and the
 * load generator take turns with the server on the same two cores.
 */
function serverCpuMs() {
  return cpuMsOf(server.pid);
}
/** A process's CPU time so far (user + system, ms). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/** Runs `work` and returns its result with the server CPU ms it cost per completed request. */
async function measured(work) {
  const before = serverCpuMs();
  const r = await work();
  const done = r["2xx"] + r.non2xx;
  r.cpuMsPerRequest = done > 0 ? Number(((serverCpuMs() - before) / done).toFixed(2)) : NaN;
  return r;
}

function load(url, opts = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...opts }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

const row = (name, r) => ({
  target: name,
  "req/s": Math.round(r.requests.average),
  "p50 ms": r.latency.p50,
  "p99 ms": r.latency.p99,
  "non-2xx": r.non2xx,
  errors: r.errors,
  "server CPU ms/req": r.cpuMsPerRequest ?? "n/a (another process)",
});

// ── Soak: does memory stay flat? (BENCH_SOAK=1 or --soak) ───────────
// SOAK_SECONDS (BENCH_SOAK_SECONDS, default 600) of mixed traffic: every
// site-map page, some with ad parameters (a new gclid/fbclid/msclkid/utm_* on
// each), a new shop search each time, the shop's sorts and categories,
// products, form pages, 404s at ever new paths, and no-JS contact posts beside
// them. Before and after it: the server's RSS and the cached home page's
// requests/s against its static ceiling. Targets: RSS at the end within 10 %
// of the start, and none of it gained over the last half (docs/decisions/052-bounded-caches.md).
if (SOAK) {
  const soak = await runSoak();
  server.kill("SIGTERM");
  await dropBenchDatabase();
  console.log(`\nsoak: ${SOAK_SECONDS}s of mixed traffic, database: ${serverUrl ? "PostgreSQL server" : "PGlite"}\n`);
  console.table(soak.samples.map(({ s, rssMb, requests, posts }) => ({ s, "RSS MB": rssMb, requests, posts })));
  console.table(soak.phases);
  console.table(soak.targets.map(([target, value, met]) => ({ target, value, met: met ? "yes" : "NO" })));
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(
    "bench-results/soak.json",
    JSON.stringify(
      {
        at: new Date().toISOString(),
        commit: spawnSync("git", ["rev-parse", "--short", "HEAD"]).stdout?.toString().trim(),
        database: serverUrl ? "postgres" : "pglite",
        ...soak,
        targets: soak.targets.map(([target, value, met]) => ({ target, value, met })),
      },
      null,
      2,
    ),
  );
  console.log("written bench-results/soak.json");
  process.exit(0);
}

async function runSoak() {
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const token = () => randomBytes(12).toString("base64url");
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const products = await (await fetch(`${base}/api/store/inventory/list`)).json();
  const categories = await (await fetch(`${base}/api/store/category/list`)).json().catch(() => []);
  const names = products.map((p) => p.name.toLowerCase());
  const ad = () =>
    pick([
      () => `gclid=${token()}`,
      () => `fbclid=${token()}`,
      () => `msclkid=${token()}`,
      () => `utm_source=google&utm_medium=cpc&utm_campaign=${token()}`,
      () => `utm_source=newsletter&utm_content=${token()}&ref=${token()}`,
    ])();
  const kinds = [
    // [weight, path maker]
    [30, () => pick(pages)],
    [15, () => `${pick(pages)}?${ad()}`],
    [
      10,
      () =>
        `/shop?${new URLSearchParams({ q: pick(names).slice(0, 3 + Math.floor(Math.random() * 6)) + token().slice(0, 2) })}`,
    ],
    [
      8,
      () =>
        `/shop?${new URLSearchParams({ ...(categories.length && Math.random() < 0.5 ? { category: String(pick(categories).id) } : {}), sort: pick(["name-desc", "price-asc", "price-desc"]) })}`,
    ],
    [10, () => `/product/${pick(products).id}${Math.random() < 0.3 ? `?${ad()}` : ""}`],
    [7, () => pick(["/contact", "/request-quote", "/request-service?type=commercial", "/pay-invoice", "/employment"])],
    [
      15,
      () =>
        pick([`/wp-login-${token()}.php`, `/${token()}`, `/admin/${token()}/.env`, `/${token()}/${token()}?${ad()}`]),
    ],
    [5, () => `/?${ad()}`],
  ];
  const totalWeight = kinds.reduce((n, [w]) => n + w, 0);
  const nextPath = () => {
    let r = Math.random() * totalWeight;
    for (const [w, make] of kinds) if ((r -= w) < 0) return make();
    return "/";
  };

  let posts = 0;
  let postErrors = 0;
  let stopPosting = false;
  /** No-JS contact posts, one after another beside the mix (a page fetched for its challenge, then the post). */
  const postLoop = async () => {
    while (!stopPosting) {
      try {
        const fields = new URLSearchParams([...formDefaults(await (await fetch(`${base}/contact`)).text())]);
        fields.set("first_name", "Soak");
        fields.set("last_name", `Visitor${posts}`);
        fields.set("email", `soak${posts}@example.com`);
        fields.set("phone", "(810) 555-0150");
        fields.set("details", `Soak message ${posts} ${token()}`);
        const r = await fetch(`${base}/contact`, {
          method: "POST",
          body: fields,
          headers: { origin: base },
          redirect: "manual",
        });
        await r.arrayBuffer();
        if (r.status < 400) posts++;
        else postErrors++;
      } catch {
        postErrors++;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** `seconds` of the mix at 20 connections, with the contact posts beside it; RSS sampled every `every` s. */
  const mix = async (seconds, samples, every, t0) => {
    stopPosting = false;
    const posting = [postLoop(), postLoop()];
    let requests = 0;
    const sampler = setInterval(() => {
      samples.push({
        s: Math.round((performance.now() - t0) / 1000),
        rssMb: Math.round(serverKb("VmRSS") / 1024),
        requests,
        posts,
      });
    }, every * 1000);
    const r = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: base,
          connections: 20,
          duration: seconds,
          requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }), onResponse: () => requests++ }],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      ),
    );
    clearInterval(sampler);
    stopPosting = true;
    await Promise.all(posting);
    return r;
  };
  const homeBytes = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
  const homeFile = ".bench-home.html";
  writeFileSync(homeFile, homeBytes);
  /**
   * The cached home's requests/s and the static ceiling's, taking turns twice
   * (home, ceiling, home, ceiling: the machine's noise falls on both alike),
   * and the server's CPU ms per home request (steadier than either on a shared machine).
   */
  const throughput = async () => {
    await fetch(`${base}/`);
    const staticServer = spawn(
      process.execPath,
      [
        "-e",
        `const b=require('fs').readFileSync(${JSON.stringify(homeFile)});require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'text/html; charset=utf-8','content-length':b.length});s.end(b)}).listen(${STATIC_PORT},'127.0.0.1')`,
      ],
      { stdio: "ignore" },
    );
    await new Promise((r) => setTimeout(r, 400));
    const homes = [];
    const ceilings = [];
    for (let turn = 0; turn < 2; turn++) {
      homes.push(await measured(() => load(`${base}/`)));
      ceilings.push(await load(`http://127.0.0.1:${STATIC_PORT}/`));
    }
    staticServer.kill();
    const mean = (runs) => runs.reduce((n, r) => n + r.requests.average, 0) / runs.length;
    return {
      "home req/s": Math.round(mean(homes)),
      "ceiling req/s": Math.round(mean(ceilings)),
      "home / ceiling": Number((mean(homes) / mean(ceilings)).toFixed(3)),
      "home CPU ms/req": Number(((homes[0].cpuMsPerRequest + homes[1].cpuMsPerRequest) / 2).toFixed(3)),
      "home p99 ms": Math.max(...homes.map((r) => r.latency.p99)),
    };
  };
  const load1 = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

  // Warm-up: every kind of request once and a short mix (the code paths loaded, the caches filled once).
  const warmSeconds = Math.min(30, Math.max(5, Math.round(SOAK_SECONDS / 20)));
  const t0 = performance.now();
  const warmSamples = [];
  await mix(warmSeconds, warmSamples, 5, t0);
  const startRss = Math.round(serverKb("VmRSS") / 1024);
  const start = { phase: "start", "RSS MB": startRss, ...(await throughput()), "load avg (1 min)": load1() };
  const samples = [];
  const t1 = performance.now();
  samples.push({ s: 0, rssMb: Math.round(serverKb("VmRSS") / 1024), requests: 0, posts: 0 });
  const run = await mix(SOAK_SECONDS, samples, Math.max(1, Math.round(SOAK_SECONDS / 60)), t1);
  const endRss = Math.round(serverKb("VmRSS") / 1024);
  samples.push({ s: SOAK_SECONDS, rssMb: endRss, requests: run["2xx"] + run.non2xx, posts });
  const end = { phase: "end", "RSS MB": endRss, ...(await throughput()), "load avg (1 min)": load1() };
  rmSync(homeFile, { force: true });

  // The last half: RSS at its start (mean of the samples around it) against the end (mean of the last ones).
  const around = (from, to) => {
    const xs = samples.filter((x) => x.s >= from && x.s <= to).map((x) => x.rssMb);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const mid = around(SOAK_SECONDS * 0.45, SOAK_SECONDS * 0.55);
  const last = around(SOAK_SECONDS * 0.9, SOAK_SECONDS);
  const peak = Math.round(serverKb("VmHWM") / 1024);
  return {
    seconds: SOAK_SECONDS,
    mix: {
      requests: run["2xx"] + run.non2xx,
      "2xx": run["2xx"],
      "non-2xx": run.non2xx,
      errors: run.errors,
      "req/s": Math.round(run.requests.average),
      "contact posts": posts,
      "post errors": postErrors,
    },
    phases: [start, end],
    samples,
    peakRssMb: peak,
    targets: [
      [
        "RSS at the end within 10 % of the start",
        `${startRss} → ${endRss} MB (${(((endRss - startRss) / startRss) * 100).toFixed(1)} %)`,
        endRss <= startRss * 1.1,
      ],
      ["no RSS growth over the last half", `${mid.toFixed(0)} → ${last.toFixed(0)} MB`, last <= mid * 1.02 + 1],
      [
        "cached home at the end within 10 % of the start (ratio to its ceiling, or CPU ms per request)",
        `${start["home / ceiling"]}× → ${end["home / ceiling"]}× its ceiling (${start["home req/s"]} → ${end["home req/s"]} req/s); ${start["home CPU ms/req"]} → ${end["home CPU ms/req"]} CPU ms/req`,
        end["home / ceiling"] >= start["home / ceiling"] * 0.9 ||
          end["home CPU ms/req"] <= start["home CPU ms/req"] * 1.1,
      ],
    ],
  };
}

// ── Interaction to Next Paint (BENCH_INP=1 or --inp: this alone) ─────
// Issue 31 item 6: a phone's Chromium (Debian's, 390 px, CDP
// Emulation.setCPUThrottlingRate 4) on a fresh context per load; a
// PerformanceObserver of 'event' entries (durationThreshold 16, buffered) keeps
// each interaction's longest entry (per interactionId). Measures, each the
// median of INP_LOADS page loads: the booking calendar (choose the first open
// day, then the first free window) and the shop's sort (a key press on the
// focused select, as a keyboard or a phone's picker changes it; a scripted
// selectOption fires no trusted event and so no entry). An interaction whose
// every entry is under 16 ms has none and counts 0. Target: INP ≤ 200 ms each
// (docs/decisions/063-every-page-audited.md).
const INP_ONLY = process.env.BENCH_INP === "1" || process.argv.includes("--inp");
const INP_TARGET_MS = 200;
const INP_LOADS = 5;
if (INP_ONLY) {
  const inp = await measureInp().catch((error) => ({ note: `not measured: ${error.message}` }));
  server.kill("SIGTERM");
  await dropBenchDatabase();
  console.log(`\nINP: median of ${INP_LOADS} loads, 4× CPU throttling, target ≤ ${INP_TARGET_MS} ms\n`);
  if (inp.rows) console.table(inp.rows);
  else console.log(inp.note);
  mkdirSync("bench-results", { recursive: true });
  writeFileSync("bench-results/inp.json", JSON.stringify({ at: new Date().toISOString(), ...inp }, null, 2));
  console.log("written bench-results/inp.json");
  process.exit(inp.met ? 0 : 1);
}

async function measureInp() {
  const steps = {
    "booking calendar": {
      path: "/request-service?type=residential",
      actions: [
        [
          "day",
          async (page) => {
            // An open day's name carries its price ("Saturday, May 9, 2026, $159.00").
            const day = page.getByRole("group", { name: "Service Date" }).getByRole("button", { name: /\$\d/ });
            await day.first().click();
            await page.getByRole("radiogroup", { name: "Service Time" }).getByRole("radio").first().waitFor();
          },
        ],
        [
          "window",
          async (page) => {
            const radio = page.getByRole("radiogroup", { name: "Service Time" }).locator("input[type=radio]:enabled");
            await radio.first().click();
            await page.waitForFunction(() => document.querySelector("[role=radiogroup] input[type=radio]:checked"));
          },
        ],
      ],
      ready: (page) =>
        page.getByRole("group", { name: "Service Date" }).getByRole("button", { name: /\$\d/ }).first().waitFor(),
    },
    "shop sort": {
      path: "/shop",
      actions: [
        [
          "sort",
          async (page) => {
            await page.focus("#shop-sort");
            await page.keyboard.press("ArrowDown");
            await page.waitForURL(/[?&]sort=/);
          },
        ],
      ],
      ready: (page) => page.locator("#shop-sort").waitFor(),
    },
  };
  const observe = () => {
    window.__interactions = new Map();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.interactionId)
          window.__interactions.set(
            e.interactionId,
            Math.max(window.__interactions.get(e.interactionId) ?? 0, e.duration),
          );
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
  };
  // Past the next frames, so that the entries of the interaction just made are delivered.
  const settled = (page) =>
    page.evaluate(() =>
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))).then(() => [
        ...window.__interactions.keys(),
      ]),
    );
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const browser = await launchChromium();
  const rows = [];
  try {
    for (const [name, { path, actions, ready }] of Object.entries(steps)) {
      const loads = [];
      for (let i = 0; i < INP_LOADS; i++) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await page.addInitScript(observe);
        await page.goto(base + path);
        await page.locator("html[data-hydrated]").waitFor({ timeout: 60_000 });
        await ready(page);
        await settled(page);
        const load = {};
        for (const [step, act] of actions) {
          const before = new Set(await settled(page));
          await act(page);
          const ids = (await settled(page)).filter((id) => !before.has(id));
          const durations = await page.evaluate((ids) => ids.map((id) => window.__interactions.get(id)), ids);
          load[step] = Math.max(0, ...durations);
        }
        load.inp = Math.max(...Object.values(load));
        loads.push(load);
        await context.close();
      }
      const inp = median(loads.map((l) => l.inp));
      rows.push({
        measure: `${name} (${path})`,
        "INP per load ms": loads.map((l) => Math.round(l.inp)).join(", "),
        "INP median ms": Math.round(inp),
        "median per step ms": actions
          .map(([step]) => `${step} ${Math.round(median(loads.map((l) => l[step])))}`)
          .join(", "),
        met: inp <= INP_TARGET_MS ? "yes" : "NO",
      });
    }
  } finally {
    await browser.close();
  }
  return { loads: INP_LOADS, cpuThrottling: 4, targetMs: INP_TARGET_MS, rows, met: rows.every((r) => r.met === "yes") };
}

const rows = [];
const results = {};

// ── Pages ───────────────────────────────────────────────────────────
let productPath = "/product/1";
try {
  const list = await (await fetch(`${base}/api/store/inventory/list`)).json();
  if (Array.isArray(list) && list[0]?.id) productPath = `/product/${list[0].id}`;
} catch {}
for (const [name, path] of [
  ["home /", "/"],
  ["/shop", "/shop"],
  [productPath, productPath],
]) {
  await fetch(base + path); // warm
  const r = await measured(() => load(base + path));
  results[name] = r;
  rows.push(row(name, r));
}

// ── /shop?q=…: a different search on every request ─────────────────
// Nothing cached can answer: every request is a database query and a render.
// The searches are pieces of the catalogue's names (so they find products),
// each request's letters cased its own way (so no two addresses are equal).
{
  let names = [];
  try {
    names = (await (await fetch(`${base}/api/store/inventory/list`)).json()).map((p) => p.name.toLowerCase());
  } catch {}
  const pieces = [
    ...new Set(names.flatMap((n) => [3, 4, 5, 6].flatMap((k) => [...n].map((_, i) => n.slice(i, i + k).trim())))),
  ].filter((piece) => piece.length >= 3 && /^[a-z0-9][a-z0-9 -]*[a-z0-9]$/.test(piece));
  const cased = (piece, variant) => [...piece].map((c, i) => ((variant >> i) & 1 ? c.toUpperCase() : c)).join("");
  if (pieces.length > 0) {
    let n = 0;
    const r = await measured(() =>
      load(`${base}/shop`, {
        requests: [
          {
            setupRequest: (req) => {
              const q = cased(pieces[n % pieces.length], Math.floor(n / pieces.length));
              n++;
              return { ...req, path: `/shop?${new URLSearchParams({ q })}` };
            },
          },
        ],
      }),
    );
    results["/shop?q=… (uncached)"] = r;
    rows.push(row("/shop?q=… (a new search each)", r));
  }
}

// ── Static ceiling: the same home bytes from a minimal static server ─
const homeBytes = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
const homeFile = ".bench-home.html";
writeFileSync(homeFile, homeBytes);
const staticServer = spawn(
  process.execPath,
  [
    "-e",
    `const b=require('fs').readFileSync(${JSON.stringify(homeFile)});require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'text/html; charset=utf-8','content-length':b.length});s.end(b)}).listen(${STATIC_PORT},'127.0.0.1')`,
  ],
  { stdio: "ignore" },
);
await new Promise((r) => setTimeout(r, 400));
const ceiling = await load(`http://127.0.0.1:${STATIC_PORT}/`);
staticServer.kill();
rmSync(homeFile, { force: true });
rows.push(row("static ceiling (home bytes)", ceiling));
const ratio = results["home /"].requests.average / ceiling.requests.average;

// ── Contact form, no-JS path, against its ceiling ───────────────────
// The ceiling (scripts/bench-form-ceiling.mjs) is a bare node:http handler in
// a child process that reads the same bodies and writes the same rows (the
// submission, two outbox rows and their two mail jobs, one postgres-js transaction, a pool of 10)
// on the same database. The two take turns (site, ceiling, site, ceiling) so
// that the machine's noise falls on both alike.
let contact = { note: "skipped" };
let formCeiling = { note: "skipped" };
const contactPage = await fetch(`${base}/contact`);
if (contactPage.ok) {
  const N = Number(process.env.BENCH_CONTACT_REQUESTS ?? 1000);
  const ROUNDS = 2;
  const bodies = [];
  // Each submission needs its own signed challenge (a replay fails), so fetch them first.
  for (let i = 0; i < N * ROUNDS; i++) {
    const fields = new URLSearchParams([...formDefaults(await (await fetch(`${base}/contact`)).text())]);
    fields.set("first_name", "Bench");
    fields.set("last_name", `Visitor${i}`);
    fields.set("email", `bench${i}@example.com`);
    fields.set("phone", "(810) 555-0150");
    fields.set("details", `Benchmark message ${i}`);
    bodies.push(fields.toString());
  }
  const dbUrl = benchDbUrl ?? `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`;
  // PGlite is one session: its socket runs every connection's statements in it,
  // so transactions from two connections would interleave. One connection there.
  const ceilingPool = benchDbUrl ? 10 : 1;
  const ceilingServer = spawn(
    process.execPath,
    ["scripts/bench-form-ceiling.mjs", String(FORM_CEILING_PORT), dbUrl, String(ceilingPool)],
    {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  process.on("exit", () => ceilingServer.kill("SIGTERM"));
  await new Promise((resolve, reject) => {
    ceilingServer.once("message", resolve);
    ceilingServer.once("exit", () => reject(new Error("the form ceiling did not start")));
  });
  const site = [];
  const bare = [];
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  // The site's mail goes out while it answers; what is still queued when a round ends is sent
  // before the ceiling's round starts (so that work cannot slow the ceiling), and its CPU is the
  // site's: CPU ms per post counts the mail delivery too, the rate counts the posts answered.
  const drainSiteMail = async (round) => {
    const cpuBefore = cpuMsOf(server.pid);
    const started = performance.now();
    for (let i = 0; i < 1200; i++) {
      const [{ waiting }] =
        await sql`select count(*)::int as waiting from pgboss.job where name = 'mail' and state < 'completed'`;
      if (waiting === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    round.cpuMs += cpuMsOf(server.pid) - cpuBefore;
    round.drainSeconds = (performance.now() - started) / 1000;
    return round;
  };
  for (let round = 0; round < ROUNDS; round++) {
    site.push(
      await drainSiteMail(await postContacts(`${base}/contact`, bodies.slice(round * N, (round + 1) * N), server.pid)),
    );
    bare.push(
      await postContacts(
        `http://127.0.0.1:${FORM_CEILING_PORT}/`,
        bodies.slice(round * N, (round + 1) * N),
        ceilingServer.pid,
      ),
    );
  }
  ceilingServer.kill("SIGTERM");
  const storedRows = async (page) => {
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
  };
  const summary = (runs, rows) => {
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
  };
  contact = summary(site, await storedRows("/contact"));
  formCeiling = { ...summary(bare, await storedRows("/ceiling")), pool: ceilingPool };
  await sql.end();
  contact["ratio to ceiling"] = Number((contact["accepted/s"] / formCeiling["accepted/s"]).toFixed(3));
  for (const [name, r] of [
    ["contact POST (no-JS)", contact],
    [`form ceiling (bare handler, pool ${ceilingPool})`, formCeiling],
  ]) {
    rows.push({
      target: name,
      "req/s": r["accepted/s"],
      "p50 ms": r["p50 ms"],
      "p99 ms": r["p99 ms"],
      "non-2xx": r["non-2xx"],
      errors: r.errors,
      "server CPU ms/req": r["server CPU ms/req"],
    });
  }
}

/** Posts each body once to `url` (50 at a time); the answers and the CPU of process `pid` they cost. */
async function postContacts(url, list, pid) {
  let next = 0;
  let lastAnswer = 0;
  const cpuBefore = cpuMsOf(pid);
  const before = performance.now();
  const r = await new Promise((resolve, reject) => {
    autocannon(
      {
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
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
  r.cpuMs = cpuMsOf(pid) - cpuBefore;
  // Up to the last answer: autocannon notices that `amount` is reached only at
  // its next one-second tick, which made this rate jump between whole seconds.
  r.seconds = ((lastAnswer || performance.now()) - before) / 1000;
  return r;
}

// ── 20 buyers checking out at once ──────────────────────────────────
// Each buyer has its own cart (cookie) and client IP, and the same two
// products with stock enough for all, so every checkout should be paid and
// stored: the products' rows are what they contend for. Every 2xx must be one
// order and one approved charge in the database.
const checkout = await measureCheckouts().catch((error) => ({ note: `not measured: ${error.message}` }));
if (checkout.buyers) {
  rows.push({
    target: `checkout POST ×${checkout.buyers} at once`,
    "req/s": "n/a",
    "p50 ms": checkout["p50 ms"],
    "p99 ms": checkout["p99 ms"],
    "non-2xx": checkout.buyers - checkout["2xx"],
    errors: checkout.errors,
    "server CPU ms/req": checkout["server CPU ms/req"],
  });
}

async function measureCheckouts() {
  const BUYERS = 20;
  const list = await (await fetch(`${base}/api/store/inventory/list`)).json();
  const stocked = list.filter((p) => p.stock >= BUYERS).slice(0, 2);
  if (stocked.length === 0) throw new Error(`no product has ${BUYERS} units in stock`);
  const expiry = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`;
  const buyers = [];
  for (let i = 0; i < BUYERS; i++) {
    const visitor = { [CLIENT_IP_HEADER]: `198.51.100.${i + 1}` }; // TEST-NET-2: one address per buyer
    let cookie = "";
    for (const product of stocked) {
      const added = await fetch(`${base}/api/store/cart/add`, {
        method: "POST",
        headers: { ...visitor, "content-type": "application/json", origin: base, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ inventory_id: product.id, selectedOptions: {} }),
      });
      if (!added.ok) throw new Error(`cart add answered ${added.status}`);
      cookie ||= (added.headers.get("set-cookie") ?? "").split(";")[0];
    }
    // The checkout page as this buyer sees it: its submission key, honeypot and sum.
    const page = await (await fetch(`${base}/checkout`, { headers: { ...visitor, cookie } })).text();
    const fields = Object.fromEntries(formDefaults(page));
    if (!fields.captcha_answer) throw new Error("the checkout page has no sum to answer");
    const body = {
      ...fields,
      name: `Bench Buyer ${i}`,
      email: `bench-buyer-${i}@example.com`,
      phone: "(810) 555-0150",
      address: "1 Bench Way",
      city: "Flint",
      state: "MI",
      zip: "48503",
      cardNumber: "4242 4242 4242 4242",
      expiry,
      cvv: "123",
    };
    buyers.push({
      headers: { ...visitor, cookie, "content-type": "application/json", origin: base },
      body: JSON.stringify(body),
    });
  }
  const peakBefore = peakRss();
  const cpuBefore = serverCpuMs();
  const answers = await Promise.all(
    buyers.map(async ({ headers, body }) => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/api/store/checkout`, { method: "POST", headers, body });
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      } catch {
        return { status: 0, ms: performance.now() - started };
      }
    }),
  );
  const cpuMs = serverCpuMs() - cpuBefore;
  const sql = postgres(benchDbUrl ?? `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`, {
    max: 1,
    onnotice: () => {},
  });
  let orders;
  let charges;
  try {
    [{ n: orders }] = await sql`select count(*)::int as n from orders where email like 'bench-buyer-%@example.com'`;
    [{ n: charges }] =
      await sql`select count(*)::int as n from payments where purpose = 'order' and status = 'approved'`;
  } finally {
    await sql.end();
  }
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q) => Math.round(ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]);
  const ok = answers.filter((a) => a.status >= 200 && a.status < 300).length;
  return {
    buyers: BUYERS,
    products: stocked.map((p) => p.id).join(", "),
    "2xx": ok,
    statuses: [...new Set(answers.map((a) => a.status))].join(", "),
    errors: answers.filter((a) => a.status === 0).length,
    orders,
    "approved charges": charges,
    "p50 ms": at(0.5),
    "p99 ms": at(0.99),
    "server CPU ms/req": Number((cpuMs / BUYERS).toFixed(2)),
    "peak RSS MB before → after": `${peakBefore} → ${peakRss()}`,
  };
}

// ── JS shipped per page (gzip) ──────────────────────────────────────
async function jsBytes(path) {
  const html = await (await fetch(base + path)).text();
  // The modules the page asks for once it has painted (app/shell/boot-after-paint.server.ts).
  const srcs = new Set(JSON.parse(/for \(const href of (\[[^\]]*\])\)/.exec(html)?.[1] ?? "[]"));
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) srcs.add(m[1]);
  let total = 0;
  for (const src of srcs) total += gzipSync(Buffer.from(await (await fetch(base + src)).arrayBuffer())).length;
  return Math.round(total / 1000); // kB (1000 bytes): the stricter reading of "120 KB"
}
/**
 * Every script a phone-sized Chromium downloads for a page until the network
 * is idle: the preloaded modules above plus the chunks loaded as the page
 * hydrates (a lazy form, for instance). The footer carousel loads only when
 * scrolled near, so a visitor who does not scroll is not charged for it.
 */
async function jsLoadedInBrowser(paths) {
  const browser = await launchChromium();
  const loaded = {};
  const sent = {};
  try {
    for (const path of paths) {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
      const scripts = new Map();
      page.on("requestfinished", (request) => {
        if (request.resourceType() !== "script" || !request.url().startsWith(base)) return;
        // Bytes on the wire as Chromium received them (Brotli from the build's pre-compressed copies).
        scripts.set(
          new URL(request.url()).pathname,
          request.sizes().then((s) => s.responseBodySize),
        );
      });
      await page.goto(base + path, { waitUntil: "networkidle" });
      let total = 0;
      let wire = 0;
      for (const [src, size] of scripts) {
        total += gzipSync(Buffer.from(await (await fetch(base + src)).arrayBuffer())).length;
        wire += await size;
      }
      loaded[path] = Math.round(total / 1000);
      sent[path] = Math.round(wire / 1000);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return { loaded, sent };
}

/** Debian's Chromium (never a Playwright download), headless, through Playwright. */
async function launchChromium() {
  const { chromium } = await import("@playwright/test");
  const executablePath =
    process.env.CHROMIUM_PATH ?? spawnSync("sh", ["-c", "command -v chromium"]).stdout?.toString().trim();
  return chromium.launch({
    executablePath: executablePath || "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

const jsPaths = ["/", "/shop", "/request-service", "/contact"];
const js = {};
for (const path of jsPaths) js[path] = await jsBytes(path);
const { loaded: jsLoaded, sent: jsSent } = await jsLoadedInBrowser(jsPaths).catch((error) => {
  console.warn(`JS loaded in Chromium not measured: ${error.message}`);
  return { loaded: {}, sent: {} };
});

const rss = peakRss();

// ── One photo upload: the server's memory while it takes 10 × 4 MB ──
// Measured last: it resets the peak above (VmHWM) to see this request alone.
const uploads = await measureUploads().catch((error) => ({ note: `not measured: ${error.message}` }));

// INP last, so that its page loads weigh on none of the server's figures above.
const inp = await measureInp().catch((error) => ({ note: `not measured: ${error.message}` }));

/** A no-JS post of the commercial service form, as a browser sends it (multipart), with these photos. */
async function servicePost(photos) {
  const page = `${base}/request-service?type=commercial`;
  const fd = new FormData();
  for (const [name, value] of formDefaults(await (await fetch(page)).text())) fd.set(name, value);
  const service = {
    name: "Bench Logistics",
    phone: "(517) 555-0190",
    email: "bench-upload@example.com",
    address1: "900 Industrial Parkway",
    city: "Lansing",
    state: "MI",
    zip: "48906",
    country: "United States",
    serviceDate: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
    serviceTime: "Evening (After 4 PM)",
    contactMethod: "Text",
  };
  for (const [name, value] of Object.entries(service)) fd.set(name, value);
  for (const photo of photos) fd.append("photo", photo);
  const response = await fetch(page, { method: "POST", body: fd, headers: { origin: base } });
  return { status: response.status, html: await response.text() };
}

/** Random (incompressible, like a camera's) bytes behind a JPEG signature. */
function jpeg(name, size) {
  const bytes = randomBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  return new File([bytes], name, { type: "image/jpeg" });
}

async function measureUploads() {
  const photoBytes = 4 * 1024 * 1024;
  const count = 10;
  const warm = await servicePost([jpeg("warm.jpg", 64 * 1024)]); // loads the upload path once
  if (!/Submitted successfully/.test(warm.html))
    throw new Error(`warm-up post answered ${warm.status} without success`);
  const runs = [];
  for (let run = 1; run <= 2; run++) {
    const photos = Array.from({ length: count }, (_, i) => jpeg(`photo-${run}-${i}.jpg`, photoBytes));
    await new Promise((r) => setTimeout(r, 500));
    const before = serverKb("VmRSS");
    // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0); a
    // 5 ms sampler covers a kernel that refuses it.
    let resetPeak = true;
    try {
      writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
    } catch {
      resetPeak = false;
    }
    let sampled = before;
    const sampler = setInterval(() => (sampled = Math.max(sampled, serverKb("VmRSS"))), 5);
    const started = performance.now();
    const answer = await servicePost(photos);
    const ms = performance.now() - started;
    clearInterval(sampler);
    const peak = Math.max(sampled, resetPeak ? serverKb("VmHWM") : 0);
    const bytes = count * photoBytes;
    runs.push({
      run,
      status: answer.status,
      stored: /Submitted successfully/.test(answer.html),
      "RSS before MB": Math.round(before / 1024),
      "peak RSS MB": Math.round(peak / 1024),
      "growth MB": Number(((peak - before) / 1024).toFixed(1)),
      "growth / bytes sent": Number((((peak - before) * 1024) / bytes).toFixed(2)),
      "post ms": Math.round(ms),
    });
  }
  // The rows are there, one per photo, at full size.
  const sql = postgres(benchDbUrl ?? `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`, {
    max: 1,
    onnotice: () => {},
  });
  let rows = NaN;
  let storedBytes = NaN;
  try {
    const [r] =
      await sql`select count(*)::int as n, coalesce(sum(length(data)), 0)::bigint as b from uploads where file_name like 'photo-%'`;
    rows = r.n;
    storedBytes = Number(r.b);
  } finally {
    await sql.end();
  }
  return {
    photos: `${count} × ${photoBytes / 1024 / 1024} MB`,
    runs,
    rows,
    "rows = photos sent": rows === 2 * count && storedBytes === 2 * count * photoBytes,
  };
}

// ── Every cent accounted for (issue 36) ────────────────────────────
// What the bench paid (the checkouts, the bookings of the INP pages if any) against the sandbox
// processor's own books and each order's ledger: `npm run payments:audit`, 0 mismatches.
const paymentsAudit = (() => {
  const dbUrl = benchDbUrl ?? `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`;
  const run = spawnSync("npx", ["tsx", "scripts/payments-audit.ts"], {
    encoding: "utf8",
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: "1",
      PAYMENT_GATEWAY: "sandbox",
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
    },
  });
  const line = /payments audit: (\d+) mismatch/.exec(run.stdout ?? "");
  return { mismatches: line ? Number(line[1]) : null, exit: run.status, output: (run.stdout ?? "").slice(-2000) };
})();
if (paymentsAudit.exit !== 0) console.log(paymentsAudit.output);

server.kill("SIGTERM");
await dropBenchDatabase();

// ── Report ──────────────────────────────────────────────────────────
const home = results["home /"];
const targets = [
  ["home ≥ 0.25× static ceiling", `${ratio.toFixed(3)}×`, ratio >= 0.25],
  ["home p99 ≤ 50 ms", `${home.latency.p99} ms`, home.latency.p99 <= 50],
  // The shop and a product are cached pages too: held to the home page's bar.
  ...[
    ["/shop", results["/shop"]],
    ["/product/{id}", results[productPath]],
  ].map(([name, r]) => {
    const shopRatio = r.requests.average / ceiling.requests.average;
    return [`${name} ≥ 0.25× static ceiling`, `${shopRatio.toFixed(3)}×`, shopRatio >= 0.25];
  }),
  ["contact ≥ 200 accepted/s", contact["accepted/s"] ?? "n/a", (contact["accepted/s"] ?? 0) >= 200],
  [
    "contact ≥ 0.25× form ceiling",
    formCeiling["accepted/s"]
      ? `${contact["ratio to ceiling"]}× (${contact["accepted/s"]} / ${formCeiling["accepted/s"]} accepted/s)`
      : "n/a",
    (contact["ratio to ceiling"] ?? 0) >= 0.25,
  ],
  [
    "contact rows = 2xx (site and ceiling)",
    `${contact["rows = 2xx"] ?? "n/a"}, ${formCeiling["rows = 2xx"] ?? "n/a"}`,
    contact["rows = 2xx"] === true && formCeiling["rows = 2xx"] === true,
  ],
  ["peak RSS ≤ 200 MB", `${rss} MB`, rss <= 200],
  [
    "10 × 4 MB upload: RSS growth ≤ 1.5× bytes sent",
    uploads.runs
      ? uploads.runs
          .map((r) => `${r["growth / bytes sent"]}× (${r["RSS before MB"]} → ${r["peak RSS MB"]} MB)`)
          .join(", ")
      : uploads.note,
    Boolean(uploads.runs?.every((r) => r.stored && r["growth / bytes sent"] <= 1.5) && uploads["rows = photos sent"]),
  ],
  [
    "20 buyers at once: orders = charges = 2xx = buyers",
    checkout.buyers
      ? `${checkout["2xx"]} 2xx (${checkout.statuses}), ${checkout.orders} orders, ${checkout["approved charges"]} charges, p99 ${checkout["p99 ms"]} ms`
      : checkout.note,
    checkout.buyers > 0 &&
      checkout["2xx"] === checkout.buyers &&
      checkout.orders === checkout["2xx"] &&
      checkout["approved charges"] === checkout["2xx"],
  ],
  ["first 200 ≤ 3 s", `${(firstOk / 1000).toFixed(2)} s`, firstOk <= 3000],
  [
    "payments audit: 0 mismatches",
    paymentsAudit.mismatches === null
      ? `not run (exit ${paymentsAudit.exit})`
      : `${paymentsAudit.mismatches} mismatches`,
    paymentsAudit.exit === 0 && paymentsAudit.mismatches === 0,
  ],
  ...(inp.rows ?? [{ measure: "booking calendar, shop sort", "INP median ms": inp.note, met: "NO" }]).map((r) => [
    `INP ${r.measure} ≤ ${INP_TARGET_MS} ms (median of ${INP_LOADS}, 4× CPU)`,
    typeof r["INP median ms"] === "number" ? `${r["INP median ms"]} ms` : r["INP median ms"],
    r.met === "yes",
  ]),
  [
    "JS on / ≤ 120 KB gzip",
    `${js["/"]} KB preloaded, ${jsLoaded["/"] ?? "n/a"} KB all loaded`,
    js["/"] <= 120 && (jsLoaded["/"] ?? Infinity) <= 120,
  ],
];
console.log(
  `\nbench: ${DURATION}s per target, ${CONNECTIONS} connections, database: ${serverUrl ? "PostgreSQL server" : "PGlite"}\n`,
);
console.table(rows);
console.table(
  Object.fromEntries(
    Object.entries(js).map(([k, v]) => [
      k,
      {
        "JS gzip KB (preloaded)": v,
        "JS gzip KB (all loaded, Chromium)": jsLoaded[k] ?? "n/a",
        "JS KB on the wire (Chromium)": jsSent[k] ?? "n/a",
      },
    ]),
  ),
);
if (uploads.runs) console.table(uploads.runs);
if (checkout.buyers) console.table([checkout]);
if (inp.rows) console.table(inp.rows);
console.table(targets.map(([target, value, met]) => ({ target, value, met: met ? "yes" : "NO" })));
const out = {
  at: new Date().toISOString(),
  commit: spawnSync("git", ["rev-parse", "--short", "HEAD"]).stdout?.toString().trim(),
  database: serverUrl ? "postgres" : "pglite",
  pages: rows,
  staticCeilingRatio: ratio,
  contact,
  formCeiling,
  checkout,
  peakRssMb: rss,
  uploads,
  firstOkMs: Math.round(firstOk),
  jsGzipKb: js,
  jsLoadedGzipKb: jsLoaded,
  jsSentKb: jsSent,
  inp,
  paymentsAudit: { mismatches: paymentsAudit.mismatches, exit: paymentsAudit.exit },
  targets: targets.map(([target, value, met]) => ({ target, value, met })),
};
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/bench.json", JSON.stringify(out, null, 2));
console.log("written bench-results/bench.json");
// The other targets are read from the table; an INP over its target (or not measured), or a payments
// audit that found a mismatch, fails the command.
process.exit(inp.met && paymentsAudit.exit === 0 ? 0 : 1);
