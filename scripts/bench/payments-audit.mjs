// Every cent accounted for (issue 36): what the bench paid (the checkouts, the bookings of the
// INP pages if any) against the sandbox processor's own books and each order's ledger:
// `npm run payments:audit` on the bench's database, 0 mismatches.
import { spawnSync } from "node:child_process";
import { databaseUrl } from "./database.mjs";

/** Runs the audit; its mismatches (null when it did not say), exit code and output's end, printed when it failed. */
export function runPaymentsAudit() {
  const run = spawnSync("npx", ["tsx", "scripts/payments-audit.ts"], {
    encoding: "utf8",
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl(),
      DATABASE_POOL_MAX: "1",
      PAYMENT_GATEWAY: "sandbox",
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
    },
  });
  const line = /payments audit: (\d+) mismatch/.exec(run.stdout ?? "");
  const paymentsAudit = {
    mismatches: line ? Number(line[1]) : null,
    exit: run.status,
    output: (run.stdout ?? "").slice(-2000),
  };
  if (paymentsAudit.exit !== 0) console.log(paymentsAudit.output);
  return paymentsAudit;
}
