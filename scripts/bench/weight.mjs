// The weight of each page kind (docs/decisions/079): every byte a phone-sized Chromium receives
// for a page until its network is idle, without scrolling (HTML, CSS, JavaScript, fonts, the
// images above the fold), as Chromium counts it on the wire. A page without a form of its own
// may weigh 60 KB, a page with a form 150 KB (KB: 1,024 bytes); over budget, the bench exits 1.
import { base } from "./args.mjs";
import { launchChromium } from "./chromium.mjs";

const KB = 1024;
export const WEIGHT_BUDGETS = { page: 60, form: 150 };

/** One path of each kind, and the kind's budget. */
const kinds = [
  ["home", "/", "page"],
  ["content page", "/about-us", "page"],
  ["service area (map)", "/service-area", "page"],
  ["reviews", "/review", "page"],
  ["404", "/no-such-page", "page"],
  ["form chooser", "/request-service", "page"],
  ["product page (quote form)", "/residential-windows", "form"],
  ["contact", "/contact", "form"],
  ["booking", "/request-service?type=residential", "form"],
  ["quote", "/request-quote?type=residential", "form"],
  ["invoice", "/pay-invoice", "form"],
  ["shop", "/shop", "form"],
  ["product", "/product/1", "form"],
];

/** Each page kind's kilobytes on the wire and its budget; `met` when none is over. */
export async function measureWeight() {
  const browser = await launchChromium();
  const pages = [];
  try {
    for (const [name, path, kind] of kinds) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      let bytes = 0;
      cdp.on("Network.loadingFinished", (event) => (bytes += event.encodedDataLength));
      await page.goto(base + path, { waitUntil: "networkidle" });
      await context.close();
      const kb = Math.round((bytes / KB) * 10) / 10;
      pages.push({ name, path, kb, budget: WEIGHT_BUDGETS[kind], over: kb > WEIGHT_BUDGETS[kind] });
    }
  } finally {
    await browser.close();
  }
  return { pages, met: pages.every((p) => !p.over) };
}

export function printWeight({ pages, met }) {
  console.log("\nWeight per page kind (390 px Chromium, until the network is idle, on the wire):");
  for (const p of pages)
    console.log(
      `  ${p.name.padEnd(28)} ${p.path.padEnd(36)} ${String(p.kb).padStart(7)} KB  budget ${p.budget} KB${p.over ? "  OVER" : ""}`,
    );
  console.log(met ? "  every page kind within its budget" : "  over budget: see OVER above");
}
