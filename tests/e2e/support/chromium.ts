import { execSync } from "node:child_process";

/** Debian's Chromium (never a Playwright download). */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync("command -v chromium", { shell: "/bin/sh" }).toString().trim() || "/usr/bin/chromium";
  } catch {
    return "/usr/bin/chromium";
  }
}

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
