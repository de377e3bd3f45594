import { defineConfig, devices } from "@playwright/test";
import { chromiumPath, chromiumArgs } from "./tests/e2e/support/chromium";
import { E2E_LOG_FILE } from "./tests/e2e/audit/server-log";
import { E2E_PORT, e2eServerEnv } from "./tests/e2e/support/server";

/**
 * End-to-end tests against the production build (npm test builds it first),
 * in Debian's Chromium. The server runs on its own scratch database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  // One retry in CI: a test that passes only on retry is reported as flaky in the output.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: true,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  },
  projects: [
    // No tests of its own: its teardown is the audit, which reads the database
    // and the server's log for card numbers and CVCs once every project that
    // depends on "suite" has finished (passed or not). A filtered run
    // (`npx playwright test tests/e2e/forms/invoice.spec.ts`) audits what it
    // ran; `npx playwright test tests/e2e/audit` runs the audit alone. A new
    // project of the suite must name "suite" in its dependencies too.
    { name: "suite", testMatch: [], teardown: "audit" },
    {
      name: "chromium",
      dependencies: ["suite"],
      testIgnore: "**/audit/**",
      use: { ...devices["Desktop Chrome"], channel: undefined },
    },
    { name: "audit", testDir: "tests/e2e/audit" },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { ...e2eServerEnv(), E2E_LOG_FILE },
    stdout: "pipe",
    stderr: "pipe",
  },
});
