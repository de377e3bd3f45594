// The browser of the JS-shipped and INP measures.
import { spawnSync } from "node:child_process";

/** Debian's Chromium (never a Playwright download; CHROMIUM_PATH names another), headless, through Playwright. */
export async function launchChromium() {
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
