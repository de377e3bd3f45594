// Interaction to Next Paint (issue 31 item 6): a phone's Chromium (Debian's, 390 px, CDP
// Emulation.setCPUThrottlingRate 4) on a fresh context per load; a PerformanceObserver of
// 'event' entries (durationThreshold 16, buffered) keeps each interaction's longest entry
// (per interactionId). Measures, each the median of INP_LOADS page loads: the booking
// calendar (choose the first open day, then the first free window) and the shop's sort (a
// key press on the focused select, as a keyboard or a phone's picker changes it; a scripted
// selectOption fires no trusted event and so no entry). An interaction whose every entry is
// under 16 ms has none and counts 0. Target: INP ≤ 200 ms each, or the command exits 1
// (docs/decisions/063-every-page-audited.md). Measured last in a full run, so that its page
// loads weigh on none of the server's figures; `--inp` (or BENCH_INP=1) measures this alone.
import { base } from "./args.mjs";
import { launchChromium } from "./chromium.mjs";

export const INP_TARGET_MS = 200;
export const INP_LOADS = 5;

/** Each measure's page, its interactions ([step, act] in order) and what shows the page is ready for them. */
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

/** In the page, before its scripts: each interaction's longest event entry, by interactionId. */
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

/** One load of a measure's page in a fresh throttled context: each step's INP and the load's (their largest). */
async function inpLoad(browser, { path, actions, ready }) {
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
  await context.close();
  return load;
}

/** Each measure's row: INP per load, their median, each step's median, and whether it met the target. */
export async function measureInp() {
  const browser = await launchChromium();
  const rows = [];
  try {
    for (const [name, measure] of Object.entries(steps)) {
      const { path, actions } = measure;
      const loads = [];
      for (let i = 0; i < INP_LOADS; i++) loads.push(await inpLoad(browser, measure));
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

/** Prints the INP-only run's heading and table (or why it was not measured). */
export function printInp(inp) {
  console.log(`\nINP: median of ${INP_LOADS} loads, 4× CPU throttling, target ≤ ${INP_TARGET_MS} ms\n`);
  if (inp.rows) console.table(inp.rows);
  else console.log(inp.note);
}
