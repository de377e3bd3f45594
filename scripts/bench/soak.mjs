// The soak (`--soak` or BENCH_SOAK=1): does memory stay flat? BENCH_SOAK_SECONDS (default
// 600) of mixed traffic: every site-map page, some with ad parameters (a new
// gclid/fbclid/msclkid/utm_* on each), a new shop search each time, the shop's sorts and
// categories, products, form pages, 404s at ever new paths, and no-JS contact posts beside
// them. Before and after it: the server's RSS and the cached home page's requests/s against
// its static ceiling. Targets: RSS at the end within 10 % of the start, and none of it gained
// over the last half (docs/decisions/052-bounded-caches.md).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { SOAK_SECONDS, base } from "./args.mjs";
import { formDefaults } from "./forms.mjs";
import { autocannonRun, load, measured, ratioTo, takeTurns } from "./load.mjs";
import { serverKb } from "./proc.mjs";
import { databaseHeading, printTargets } from "./results.mjs";
import { removeHomeFile, startStaticServer, staticUrl, writeHomeFile } from "./static-ceiling.mjs";

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const token = () => randomBytes(12).toString("base64url");
const rssMb = () => Math.round(serverKb("VmRSS") / 1024);
const load1 = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** A new path of the mix on each call, drawn by weight from the site map, the catalogue and made-up paths. */
async function soakPaths() {
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
  return () => {
    let r = Math.random() * totalWeight;
    for (const [w, make] of kinds) if ((r -= w) < 0) return make();
    return "/";
  };
}

/** No-JS contact posts, one after another beside the mix (a page fetched for its challenge, then the post), until `traffic.stopPosting`. */
async function postLoop(traffic) {
  while (!traffic.stopPosting) {
    try {
      const fields = new URLSearchParams([...formDefaults(await (await fetch(`${base}/contact`)).text())]);
      fields.set("first_name", "Soak");
      fields.set("last_name", `Visitor${traffic.posts}`);
      fields.set("email", `soak${traffic.posts}@example.com`);
      fields.set("phone", "(810) 555-0150");
      fields.set("details", `Soak message ${traffic.posts} ${token()}`);
      const r = await fetch(`${base}/contact`, {
        method: "POST",
        body: fields,
        headers: { origin: base },
        redirect: "manual",
      });
      await r.arrayBuffer();
      if (r.status < 400) traffic.posts++;
      else traffic.postErrors++;
    } catch {
      traffic.postErrors++;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `seconds` of the mix at 20 connections, with two contact-post loops beside it; RSS sampled into `samples` every `every` s. */
async function mix(traffic, seconds, samples, every, t0) {
  traffic.stopPosting = false;
  const posting = [postLoop(traffic), postLoop(traffic)];
  let requests = 0;
  const sampler = setInterval(() => {
    samples.push({ s: Math.round((performance.now() - t0) / 1000), rssMb: rssMb(), requests, posts: traffic.posts });
  }, every * 1000);
  const r = await autocannonRun({
    url: base,
    connections: 20,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, path: traffic.nextPath() }), onResponse: () => requests++ }],
  });
  clearInterval(sampler);
  traffic.stopPosting = true;
  await Promise.all(posting);
  return r;
}

/**
 * The cached home's requests/s and the static ceiling's, taking turns twice
 * (home, ceiling, home, ceiling: the machine's noise falls on both alike),
 * and the server's CPU ms per home request (steadier than either on a shared machine).
 */
async function throughput() {
  await fetch(`${base}/`);
  const staticServer = await startStaticServer();
  const [homes, ceilings] = await takeTurns(
    2,
    () => measured(() => load(`${base}/`)),
    () => load(staticUrl),
  );
  staticServer.kill();
  const mean = (runs) => runs.reduce((n, r) => n + r.requests.average, 0) / runs.length;
  return {
    "home req/s": Math.round(mean(homes)),
    "ceiling req/s": Math.round(mean(ceilings)),
    "home / ceiling": ratioTo(mean(homes), mean(ceilings)),
    "home CPU ms/req": Number(((homes[0].cpuMsPerRequest + homes[1].cpuMsPerRequest) / 2).toFixed(3)),
    "home p99 ms": Math.max(...homes.map((r) => r.latency.p99)),
  };
}

/** The soak's targets ([target, value, met] each) from its RSS samples and its two throughput phases. */
function soakTargets(samples, start, end) {
  const [startRss, endRss] = [start["RSS MB"], end["RSS MB"]];
  // The last half: RSS at its start (mean of the samples around it) against the end (mean of the last ones).
  const around = (from, to) => {
    const xs = samples.filter((x) => x.s >= from && x.s <= to).map((x) => x.rssMb);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const mid = around(SOAK_SECONDS * 0.45, SOAK_SECONDS * 0.55);
  const last = around(SOAK_SECONDS * 0.9, SOAK_SECONDS);
  return [
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
  ];
}

/** The soak: a warm-up, the start's figures, the mix, the end's figures; its mix totals, phases, samples and targets. */
export async function runSoak() {
  const traffic = { nextPath: await soakPaths(), posts: 0, postErrors: 0, stopPosting: false };
  await writeHomeFile();
  // Warm-up: every kind of request once and a short mix (the code paths loaded, the caches filled once).
  const warmSeconds = Math.min(30, Math.max(5, Math.round(SOAK_SECONDS / 20)));
  const t0 = performance.now();
  await mix(traffic, warmSeconds, [], 5, t0);
  const start = { phase: "start", "RSS MB": rssMb(), ...(await throughput()), "load avg (1 min)": load1() };
  const samples = [];
  const t1 = performance.now();
  samples.push({ s: 0, rssMb: rssMb(), requests: 0, posts: 0 });
  const run = await mix(traffic, SOAK_SECONDS, samples, Math.max(1, Math.round(SOAK_SECONDS / 60)), t1);
  const endRss = rssMb();
  samples.push({ s: SOAK_SECONDS, rssMb: endRss, requests: run["2xx"] + run.non2xx, posts: traffic.posts });
  const end = { phase: "end", "RSS MB": endRss, ...(await throughput()), "load avg (1 min)": load1() };
  removeHomeFile();
  const targets = soakTargets(samples, start, end);
  return {
    seconds: SOAK_SECONDS,
    mix: {
      requests: run["2xx"] + run.non2xx,
      "2xx": run["2xx"],
      "non-2xx": run.non2xx,
      errors: run.errors,
      "req/s": Math.round(run.requests.average),
      "contact posts": traffic.posts,
      "post errors": traffic.postErrors,
    },
    phases: [start, end],
    samples,
    peakRssMb: Math.round(serverKb("VmHWM") / 1024),
    targets,
  };
}

/** Prints the soak's heading, its RSS samples, its two phases and its targets. */
export function printSoak(soak) {
  console.log(`\nsoak: ${SOAK_SECONDS}s of mixed traffic, database: ${databaseHeading()}\n`);
  console.table(soak.samples.map(({ s, rssMb, requests, posts }) => ({ s, "RSS MB": rssMb, requests, posts })));
  console.table(soak.phases);
  printTargets(soak.targets);
}
