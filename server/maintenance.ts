import type { Database } from "@db/client.server";
import { pruneSpentTokens } from "~/forms/captcha/spent.server";
import { prunePostedAnswers } from "~/forms/posted-answer.server";
import { pruneRateLimits } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { clearSentBodies } from "~/mail/outbox.server";
import { mailAuditMismatches } from "~/mail/staff-notices.server";
import { RECONCILE_EVERY_MS, reconcile, reconcileGraceMs } from "~/payments/reconcile.server";
import { claimRender, endClaim, pruneSubmissionKeys, renewClaim } from "~/forms/submission-keys.server";
import { auditPayments, reconcileHooks } from "./ledger";
import { pruneCarts } from "~/shop/cart.server";

/**
 * The database's housekeeping, when the server starts (a server that restarts
 * often still does it) and then hourly:
 *   - sent mail bodies older than MAIL_RETENTION_DAYS are cleared (the outbox
 *     row stays: who was sent what, when);
 *   - rate-limit counters whose window has ended are pruned;
 *   - spent captcha tokens past their expiry are pruned;
 *   - carts whose cookie has expired are deleted;
 *   - submission keys older than 30 days and claims older than a day are pruned;
 *   - paid forms' answers kept for their 303 (posted without JavaScript) older than an hour are deleted.
 * And, at start and every RECONCILE_EVERY_MS, the payments ledger's reconciler (every row that
 * is not final, app/payments/reconcile.server.ts) on one instance at a time: the instance holding
 * the `ledger-reconciler` lease (a claim that a dead holder leaves stale within a minute); and,
 * once a day, the payments audit, whose mismatches are mailed to the company.
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
    auditEveryMs = AUDIT_EVERY_MS,
  } = {},
): Maintenance {
  const steps: [string, () => Promise<void>][] = [
    ["sent mail bodies", () => clearSentBodies(db, retentionDays)],
    ["spent captcha tokens", () => pruneSpentTokens(db)],
    ["rate-limit counters", () => pruneRateLimits(db)],
    ["expired carts", () => pruneCarts(db)],
    ["submission keys", () => pruneSubmissionKeys(db)],
    ["posted answers", () => prunePostedAnswers(db)],
  ];
  const reconcileRound = () =>
    underLease(db, RECONCILER_LEASE, async () => {
      await reconcile(db, { hooks: reconcileHooks, graceMs: reconcileGraceMs() });
    });
  const auditRound = () =>
    underLease(
      db,
      `${AUDIT_LEASE}:${new Date().toISOString().slice(0, 10)}`,
      async () => {
        await mailAuditMismatches(db, await auditPayments(db));
      },
      { keep: true, staleMs: 25 * 60 * 60 * 1000 },
    );
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
  let settling: Promise<void> = reconcileRound();
  const reconciler = setInterval(() => (settling = settling.then(reconcileRound)), reconcileEveryMs);
  reconciler.unref();
  let auditing: Promise<void> = Promise.resolve();
  const auditor = setInterval(() => (auditing = auditing.then(auditRound)), auditEveryMs);
  auditor.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      clearInterval(reconciler);
      clearInterval(auditor);
      await Promise.all([round, settling, auditing]);
    },
  };
}

const RECONCILER_LEASE = "ledger-reconciler";
const AUDIT_LEASE = "payments-audit";
/** A lease not renewed for this long belongs to an instance that died. */
const LEASE_STALE_MS = 60_000;
const AUDIT_EVERY_MS = 60 * 60 * 1000;

/**
 * Runs `work` on one instance at a time: the instance that takes the named lease (a claim row in
 * submission_claims), renewing it while it works. `keep`: the lease is never given back, so its
 * work runs once while its name lasts (the day's audit: whichever instance takes that day's lease
 * first; claims are pruned after a day).
 */
async function underLease(
  db: Database,
  name: string,
  work: () => Promise<void>,
  { keep = false, staleMs = LEASE_STALE_MS } = {},
): Promise<void> {
  try {
    if (!(await claimRender(db, name, "lease", staleMs))) return;
  } catch (error) {
    log.error({ err: error, lease: name }, "lease could not be taken; trying again later");
    return;
  }
  const renew = setInterval(() => void (keep ? undefined : renewClaim(db, name).catch(() => {})), LEASE_STALE_MS / 4);
  renew.unref();
  try {
    await work();
  } catch (error) {
    log.error({ err: error, lease: name }, "payments round failed; trying again later");
  } finally {
    clearInterval(renew);
    if (!keep) await endClaim(db, name).catch(() => {});
  }
}
