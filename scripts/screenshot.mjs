// Screenshot helper for looking at pages: node scripts/screenshot.mjs URL OUT.png WIDTH HEIGHT [light|dark] [full|view] [js|nojs]
import { chromium } from "@playwright/test";
const [, , url, out, w, h, scheme, full, js] = process.argv;
const b = await chromium.launch({
  executablePath: "/usr/bin/chromium",
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
const ctx = await b.newContext({
  viewport: { width: +w, height: +h },
  colorScheme: scheme ?? "light",
  javaScriptEnabled: js !== "nojs",
  reducedMotion: full === "full" ? "reduce" : "no-preference",
});
const p = await ctx.newPage();
await p.goto(url, { waitUntil: "networkidle" });
await p.waitForTimeout(500);
await p.screenshot({ path: out, fullPage: full === "full" });
await b.close();
