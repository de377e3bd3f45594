import type { Database } from "@db/client.server";
import { pruneSpentTokens } from "~/forms/captcha/spent.server";
import { pruneRateLimits } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { clearSentBodies } from "~/mail/outbox.server";
import { mailSettledCharges } from "~/mail/staff-notices.server";
import { RECONCILE_EVERY_MS, settleOrphanCharges } from "~/payments/reconcile.server";
import { pruneSubmissionKeys } from "~/forms/submission-keys.server";
import { pruneCarts } from "~/shop/cart.server";

/**
 * The database's housekeeping, when the server starts (a server that restarts
 * often still does it) and then hourly:
 *   - sent mail bodies older than MAIL_RETENTION_DAYS are cleared (the outbox
 *     row stays: who was sent what, when);
 *   - rate-limit counters whose window has ended are pruned;
 *   - spent captcha tokens past their expiry are pruned;
 *   - carts whose cookie has expired are deleted;
 *   - submission keys older than 30 days and claims older than a day are pruned.
 * And, at start and every RECONCILE_EVERY_MS (a cheap query), approved charges whose record
 * was never stored are voided and the company mailed (app/payments/reconcile.server.ts).
 * Each capability owns its rule (the function it exports); this module owns
 * when they run. Every step is an idempotent statement, so instances running
 * it at the same time do no harm, and a step that fails is logged and does
 * not keep the others from running.
 */
export type Maintenance = {
  /** The housekeeping now (after a round already under way). */
  run(): Promise<void>;
  /** No more rounds; waits for the one under way. */
  stop(): Promise<void>;
};

export const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;

export function startMaintenance(
  db: Database,
  {
    everyMs = MAINTENANCE_EVERY_MS,
    retentionDays = env().MAIL_RETENTION_DAYS,
    reconcileEveryMs = RECONCILE_EVERY_MS,
  } = {},
): Maintenance {
  const steps: [string, () => Promise<void>][] = [
    ["sent mail bodies", () => clearSentBodies(db, retentionDays)],
    ["spent captcha tokens", () => pruneSpentTokens(db)],
    ["rate-limit counters", () => pruneRateLimits(db)],
    ["expired carts", () => pruneCarts(db)],
    ["submission keys", () => pruneSubmissionKeys(db)],
  ];
  const reconcile = async () => {
    try {
      await mailSettledCharges(db, await settleOrphanCharges(db));
    } catch (error) {
      log.error({ err: error }, "orphaned charges could not be reconciled; trying again later");
    }
  };
  let round: Promise<void> = Promise.resolve();
  const run = (): Promise<void> => {
    round = round.then(async () => {
      for (const [step, work] of steps) {
        try {
          await work();
        } catch (error) {
          log.error({ err: error, step }, "maintenance step failed");
        }
      }
    });
    return round;
  };
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  let settling: Promise<void> = reconcile();
  const reconciler = setInterval(() => (settling = settling.then(reconcile)), reconcileEveryMs);
  reconciler.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      clearInterval(reconciler);
      await Promise.all([round, settling]);
    },
  };
}
