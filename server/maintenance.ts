import type { Database } from "@db/client.server";
import { pruneSpentTokens } from "~/forms/captcha/spent.server";
import { pruneRateLimits } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { clearSentBodies } from "~/mail/outbox.server";
import { pruneCarts } from "~/shop/cart.server";

/**
 * The database's housekeeping, when the server starts (a server that restarts
 * often still does it) and then hourly:
 *   - sent mail bodies older than MAIL_RETENTION_DAYS are cleared (the outbox
 *     row stays: who was sent what, when);
 *   - rate-limit counters whose window has ended are pruned;
 *   - spent captcha tokens past their expiry are pruned;
 *   - carts whose cookie has expired are deleted.
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
  { everyMs = MAINTENANCE_EVERY_MS, retentionDays = env().MAIL_RETENTION_DAYS } = {},
): Maintenance {
  const steps: [string, () => Promise<void>][] = [
    ["sent mail bodies", () => clearSentBodies(db, retentionDays)],
    ["spent captcha tokens", () => pruneSpentTokens(db)],
    ["rate-limit counters", () => pruneRateLimits(db)],
    ["expired carts", () => pruneCarts(db)],
  ];
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
  return {
    run,
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
