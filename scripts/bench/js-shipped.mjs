// JS shipped per page, in kB (1,000 bytes) of gzip: the modules a page asks for in its HTML,
// and every script a phone-sized Chromium fetches until the network is idle (in gzip, and as
// the bytes Chromium actually received).
import { gzipSync } from "node:zlib";
import { base } from "./args.mjs";
import { launchChromium } from "./chromium.mjs";

const jsPaths = ["/", "/shop", "/request-service", "/contact"];

/** The gzip kB of the modules the page's HTML asks for. */
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

/** Each page's preloaded JS, and (when Chromium runs) all it loaded and what it received; by path. */
export async function measureJs() {
  const js = {};
  for (const path of jsPaths) js[path] = await jsBytes(path);
  const { loaded: jsLoaded, sent: jsSent } = await jsLoadedInBrowser(jsPaths).catch((error) => {
    console.warn(`JS loaded in Chromium not measured: ${error.message}`);
    return { loaded: {}, sent: {} };
  });
  return { js, jsLoaded, jsSent };
}
