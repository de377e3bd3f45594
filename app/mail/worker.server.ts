import type { Connection, DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { onShutdown } from "~/lib/startup.server";
import { pruneSpentTokens } from "~/forms/captcha/spent.server";
import { pruneRateLimits } from "~/forms/rate-limit.server";
import {
  claimDueMail,
  clearSentBodies,
  markFailed,
  markSent,
  onMailEnqueued,
  releaseClaims,
  type OutboxRow,
} from "./outbox.server";
import { createMailTransport, MAIL_CONCURRENCY, type MailTransport } from "./transport.server";
import { renderSubmissionMail } from "./render.server";

/**
 * Delivers the outbox: claims due rows (row locks + lease, so several server
 * instances never send the same row at once), sends them with the transport
 * a few at a time, marks the delivered ones sent (one statement per batch),
 * or schedules a retry with exponential backoff.
 *
 * It drains: while a claim comes back full and the peer accepts mail, the
 * next batch is claimed at once, so a backlog goes out at the SMTP peer's
 * pace (issue 15: one batch of 10 per 5-second poll took two hours for 15,000
 * messages). It sleeps only when everything due has been claimed, or when a
 * whole batch failed (the peer is down: the backoff brings those rows back),
 * and wakes right after a submission commits.
 *
 * Also the periodic maintenance (at start and hourly): sent bodies past
 * MAIL_RETENTION_DAYS are cleared, expired rate-limit and spent-captcha rows
 * pruned.
 */
export type MailWorkerOptions = {
  db: DbOrTx;
  transport: MailTransport;
  from: string;
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** How long a claimed row stays ours before another worker may retry it. */
  leaseMs?: number;
  /** Rows per claim (and per markSent statement). */
  batchSize?: number;
  /** Messages in flight at once (the SMTP pool opens as many connections). */
  concurrency?: number;
  /** Sent bodies older than this are cleared (default MAIL_RETENTION_DAYS). */
  retentionDays?: number;
};

export type MailWorker = {
  /** One pass: claim one batch and send it. Resolves with the number sent. */
  runOnce(): Promise<number>;
  /** The maintenance now: retention, expired rate limits and captcha tokens. */
  maintain(): Promise<void>;
  /** Stops claiming, lets the messages in flight finish, hands back the rest of the batch. */
  stop(): Promise<void>;
};

type PassResult = { claimed: number; sent: number };

const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const {
    db,
    transport,
    from,
    pollMs,
    maxAttempts,
    retryBaseMs,
    leaseMs = 5 * 60_000,
    batchSize = 25,
    concurrency = MAIL_CONCURRENCY,
    retentionDays = env().MAIL_RETENTION_DAYS,
  } = options;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let draining: Promise<void> | undefined;
  /** A submission committed while draining: look again before sleeping. */
  let woken = false;
  /** Passes run one after another (the drain loop's and runOnce's). */
  let passes: Promise<unknown> = Promise.resolve();
  let maintenance: Promise<void> | undefined;
  let lastMaintenance = Number.NEGATIVE_INFINITY;

  async function deliver(row: OutboxRow): Promise<boolean> {
    try {
      // A submission's mail is rendered here, at send time, from what its row says (docs/decisions/050-form-path.md).
      const html = row.html ?? (row.content ? renderSubmissionMail(row.content).html : null);
      await transport.send({
        from,
        to: row.to,
        replyTo: row.replyTo,
        subject: row.subject,
        text: row.text,
        html,
        attachments: row.attachments,
      });
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn({ outboxId: row.id, attempt: row.attempts, err: message }, "mail delivery failed; will retry");
      // Should this fail too (database down), the lease brings the row back.
      await markFailed(db, row, message, maxAttempts, retryBaseMs).catch((err: unknown) =>
        log.error({ outboxId: row.id, err }, "could not schedule the retry; the row is retried when its lease ends"),
      );
      return false;
    }
  }

  async function pass(): Promise<PassResult> {
    if (stopped) return { claimed: 0, sent: 0 };
    const rows = await claimDueMail(db, batchSize, leaseMs);
    const sent: number[] = [];
    let next = 0;
    // `concurrency` lanes take the batch's rows in order; none starts a new send once stop() was called.
    async function lane(): Promise<void> {
      while (!stopped && next < rows.length) {
        const row = rows[next++]!;
        if (await deliver(row)) sent.push(row.id);
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, lane));
    } finally {
      // One statement for the batch. Should the process die before it, those
      // rows go out again once their lease ends: at least once, never lost.
      await markSent(db, sent);
      if (next < rows.length)
        await releaseClaims(
          db,
          rows.slice(next).map((row) => row.id),
        );
    }
    return { claimed: rows.length, sent: sent.length };
  }

  function exclusive(): Promise<PassResult> {
    const run = passes.then(pass);
    passes = run.catch(() => undefined);
    return run;
  }

  async function drain(): Promise<void> {
    const started = performance.now();
    let total = 0;
    for (;;) {
      woken = false;
      if (stopped) break;
      const { claimed, sent } = await exclusive();
      total += sent;
      // A full batch that went out: more is probably due, so on at once.
      if (claimed === batchSize && sent > 0) continue;
      // Everything due was claimed (or the peer refused a whole batch): sleep, unless a post came in meanwhile.
      if (!woken) break;
    }
    if (total > batchSize) {
      const seconds = (performance.now() - started) / 1000;
      log.info(
        { sent: total, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round(total / seconds) },
        "mail backlog sent",
      );
    }
  }

  function kick(): void {
    if (stopped) return;
    if (draining) {
      woken = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = undefined;
    draining = drain()
      .catch((error: unknown) => log.error({ err: error }, "mail worker pass failed"))
      .finally(() => {
        draining = undefined;
        if (stopped) return;
        maybeMaintain();
        schedule(woken ? 0 : pollMs);
      });
  }

  function schedule(delay: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(kick, delay);
    timer.unref?.();
  }

  async function maintain(): Promise<void> {
    try {
      await clearSentBodies(db, retentionDays);
      await pruneSpentTokens(db);
      await pruneRateLimits(db);
    } catch (error) {
      lastMaintenance = Number.NEGATIVE_INFINITY; // try again after the next pass, not in an hour
      log.error({ err: error }, "mail worker maintenance failed");
    }
  }

  function maybeMaintain(): void {
    if (stopped || maintenance || Date.now() - lastMaintenance < MAINTENANCE_EVERY_MS) return;
    lastMaintenance = Date.now();
    maintenance = maintain().finally(() => {
      maintenance = undefined;
    });
  }

  const unsubscribe = onMailEnqueued(kick);
  maybeMaintain(); // on start-up: a server that restarts often still clears and prunes
  kick();

  return {
    runOnce: () =>
      exclusive().then(
        (result) => result.sent,
        (error: unknown) => {
          log.error({ err: error }, "mail worker pass failed");
          return 0;
        },
      ),
    async maintain() {
      await maintenance;
      await maintain();
    },
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await draining;
      await passes;
      await maintenance;
      transport.close();
    },
  };
}

/** The server's worker (one per process). */
let serverWorker: MailWorker | undefined;

/**
 * Starts the server's worker on the open database, with the configured
 * transport, and has the shutdown stop it. Called by the server's start-up
 * (server/app.ts) once the database is open: explicitly, never as a side
 * effect of importing this module (tests import it and start their own).
 */
export function startServerMailWorker(conn: Connection): MailWorker {
  if (serverWorker) return serverWorker;
  const e = env();
  const transport = createMailTransport();
  const worker = startMailWorker({
    db: conn.db,
    transport,
    from: e.MAIL_FROM,
    pollMs: e.MAIL_POLL_MS,
    maxAttempts: e.MAIL_MAX_ATTEMPTS,
    retryBaseMs: e.MAIL_RETRY_BASE_MS,
    retentionDays: e.MAIL_RETENTION_DAYS,
  });
  serverWorker = worker;
  log.info({ transport: transport.description }, "mail worker started");
  // Finish the messages in flight before the database closes (a mail cut off
  // mid-send would go out again once its claim on the row expires).
  onShutdown(() => worker.stop());
  return worker;
}
