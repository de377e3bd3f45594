import type { Connection, DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { onDatabaseReady, onShutdown } from "~/lib/startup.server";
import { pruneSpentTokens } from "~/forms/captcha/spent.server";
import { pruneRateLimits } from "~/forms/rate-limit.server";
import { claimDueMail, markFailed, markSent, onMailEnqueued } from "./outbox.server";
import { createMailTransport, type MailTransport } from "./transport.server";

/**
 * Delivers the outbox: claims due rows (row locks + lease, so several server
 * instances never send the same row at once), sends each with the transport,
 * marks it sent, or schedules a retry with exponential backoff. Wakes up right
 * after a submission commits and otherwise polls.
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
  batchSize?: number;
};

export type MailWorker = {
  /** One pass: claim and send what is due. Resolves with the number sent. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
};

const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, from, pollMs, maxAttempts, retryBaseMs, leaseMs = 5 * 60_000, batchSize = 10 } = options;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let lastMaintenance = 0;

  async function pass(): Promise<number> {
    const sent: number[] = [];
    const rows = await claimDueMail(db, batchSize, leaseMs);
    try {
      for (const row of rows) {
        try {
          await transport.send({ from, to: row.to, replyTo: row.replyTo, subject: row.subject, text: row.text, html: row.html });
          sent.push(row.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.warn({ outboxId: row.id, attempt: row.attempts, err: message }, "mail delivery failed; will retry");
          await markFailed(db, row, message, maxAttempts, retryBaseMs);
        }
      }
    } finally {
      // One statement for the batch (up to batchSize rows). Should the process
      // die before it, those rows go out again once their lease ends: mail is
      // delivered at least once, never lost.
      await markSent(db, sent);
    }
    if (Date.now() - lastMaintenance > MAINTENANCE_EVERY_MS) {
      lastMaintenance = Date.now();
      await pruneSpentTokens(db);
      await pruneRateLimits(db);
    }
    return sent.length;
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((error: unknown) => {
        log.error({ err: error }, "mail worker pass failed");
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          schedule(0);
        }
      });
    return running;
  }

  function schedule(delay: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void runOnce().then(() => schedule(pollMs));
    }, delay);
    timer.unref?.();
  }

  const unsubscribe = onMailEnqueued(() => schedule(0));
  schedule(0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}

/** The server's worker, started once the database is open (never under vitest). */
let serverWorker: MailWorker | undefined;

onDatabaseReady((conn: Connection) => {
  if (process.env.VITEST || serverWorker) return;
  const e = env();
  const transport = createMailTransport();
  serverWorker = startMailWorker({
    db: conn.db,
    transport,
    from: e.MAIL_FROM,
    pollMs: e.MAIL_POLL_MS,
    maxAttempts: e.MAIL_MAX_ATTEMPTS,
    retryBaseMs: e.MAIL_RETRY_BASE_MS,
  });
  log.info({ transport: transport.description }, "mail worker started");
  // Finish the message in flight before the database closes (a mail cut off
  // mid-send would go out again once its claim on the row expires).
  onShutdown(async () => serverWorker?.stop());
});
