import { expect, test } from "../support/test";
import { spawnSync } from "node:child_process";
import { e2eDatabaseUrl } from "../support/server";

/**
 * After the suite (the teardown project, with the card-number audit beside it): every cent the
 * suite's browsers paid, moved or gave back is accounted for (issue 36): `npm run payments:audit`
 * compares every ledger row with the sandbox processor's own books and every booking, order and
 * invoice payment with its ledger, and finds nothing.
 */
test("npm run payments:audit finds every cent the suite moved accounted for", async () => {
  test.setTimeout(120_000);
  const run = spawnSync("npx", ["tsx", "scripts/payments-audit.ts"], {
    encoding: "utf8",
    env: {
      ...process.env,
      DATABASE_URL: e2eDatabaseUrl(),
      // The embedded database's share answers one conversation at a time.
      DATABASE_POOL_MAX: "1",
      PAYMENT_GATEWAY: "sandbox",
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = `${run.stdout}\n${run.stderr}`;
  expect(out).toMatch(/payments audit: 0 mismatches/);
  expect(run.status, out.slice(-4000)).toBe(0);
  // The suite paid for things: the audit looked at rows, not at an empty ledger.
  expect(out).not.toContain("MISMATCH");
});
