import { createHash } from "node:crypto";
import { inArray } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Connection } from "@db/client.server";
import { loadPgBoss } from "@db/queue.server";
import { outbox } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { onShutdown } from "~/lib/startup.server";
import { MAIL_QUEUE, markFailed, markSent, onMailEnqueued, type MailJob, type OutboxRow } from "./outbox.server";
import { createMailTransport, MAIL_CONCURRENCY, type MailTransport } from "./transport.server";
import { renderSubmissionMail } from "./render.server";

/**
 * Delivers the outbox with pg-boss (docs/decisions/045-job-queue.md): a
 * worker on the `mail` queue fetches a batch of jobs (each names one outbox
 * row), sends them with the transport a few at a time, and records the
 * outcome on the rows. pg-boss owns the rest: `FOR UPDATE SKIP LOCKED` so
 * several server instances never send the same job at once, the retries with
 * exponential backoff (MAIL_MAX_ATTEMPTS, MAIL_RETRY_BASE_MS), the expiry of
 * a job whose worker died mid-send (it is then retried), and the archive and
 * deletion of finished jobs.
 *
 * It drains: after a full batch it fetches the next at once, so a backlog
 * goes out at the SMTP peer's pace (issue 15: one batch of 10 per 5-second
 * poll took two hours for 15,000 messages), and a commit wakes it
 * (`wakeMailWorker`); otherwise it polls every MAIL_POLL_MS.
 *
 * Sent bodies are cleared after MAIL_RETENTION_DAYS by the server's
 * housekeeping (server/maintenance.ts), not here.
 */
export type MailWorkerOptions = {
  conn: Pick<Connection, "db" | "queue">;
  transport: MailTransport;
  from: string;
  pollMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** How long a job may be in a worker's hands before it is retried elsewhere. */
  leaseMs?: number;
  /** Jobs per fetch (and per markSent statement). */
  batchSize?: number;
  /** Messages in flight at once (the SMTP pool opens as many connections). */
  concurrency?: number;
};

export type MailWorker = {
  /** Stops fetching, lets the batch in hand finish, stops the queue. */
  stop(): Promise<void>;
};

/** Starts the queue, then the worker on it, and has a commit to the outbox wake it. */
export async function startMailWorker(options: MailWorkerOptions): Promise<MailWorker> {
  const {
    conn,
    transport,
    from,
    pollMs,
    maxAttempts,
    retryBaseMs,
    leaseMs = 5 * 60_000,
    batchSize = 25,
    concurrency = MAIL_CONCURRENCY,
  } = options;
  const boss = await startMailQueue(conn.queue, { maxAttempts, retryBaseMs, leaseMs });
  const delivery: Delivery = { boss, db: conn.db, transport, from, batchSize, concurrency };
  const workerId = await boss.work<MailJob>(
    MAIL_QUEUE,
    { batchSize, includeMetadata: true, pollingIntervalSeconds: Math.max(0.5, pollMs / 1000) },
    batchHandler(delivery, () => boss.notifyWorker(workerId)),
  );
  const wake = () => boss.notifyWorker(workerId);
  const unsubscribe = onMailEnqueued(wake);
  return stoppableWorker(boss, transport, unsubscribe);
}

/** What the worker's handler works with: the queue, the database, the transport and the batch's bounds. */
type Delivery = {
  boss: PgBoss;
  db: Connection["db"];
  transport: MailTransport;
  from: string;
  batchSize: number;
  concurrency: number;
};

/** Starts pg-boss on the queue's connection and sets the mail queue's retries and lease. */
async function startMailQueue(
  queue: Connection["queue"],
  settings: { maxAttempts: number; retryBaseMs: number; leaseMs: number },
): Promise<PgBoss> {
  const Boss = await loadPgBoss();
  const boss = new Boss({
    ...queue,
    schedule: false,
    // Finished jobs leave the queue's table after an hour and are deleted after a week: the outbox row is the record.
    archiveCompletedAfterSeconds: 60 * 60,
    deleteAfterDays: 7,
  });
  boss.on("error", (error: unknown) => log.error({ err: error }, "mail queue error"));
  await boss.start();
  await boss.updateQueue(MAIL_QUEUE, {
    name: MAIL_QUEUE,
    policy: "standard",
    retryLimit: settings.maxAttempts - 1,
    retryDelay: Math.max(1, Math.round(settings.retryBaseMs / 1000)),
    retryBackoff: true,
    expireInSeconds: Math.ceil(settings.leaseMs / 1000),
  });
  return boss;
}

/** Sends one job's mail; true when it went, false when it failed (the job is failed and the row marked). */
async function deliver(d: Delivery, job: PgBoss.JobWithMetadata<MailJob>, row: OutboxRow): Promise<boolean> {
  const { from } = d;
  try {
    // A submission's mail is rendered here, at send time, from what its row says (docs/decisions/050-form-path.md).
    const html = row.html ?? (row.content ? renderSubmissionMail(row.content).html : null);
    await d.transport.send({
      from,
      to: row.to,
      replyTo: row.replyTo,
      subject: row.subject,
      text: row.text,
      html,
      attachments: row.attachments,
      messageId: messageIdOf(row, from),
    });
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const giveUp = job.retryCount >= job.retryLimit;
    log.warn({ outboxId: row.id, attempt: job.retryCount + 1, giveUp, err: message }, "mail delivery failed");
    // The job fails on its own (the rest of the batch completes); pg-boss schedules its retry.
    await d.boss.fail(MAIL_QUEUE, job.id, { message });
    await markFailed(d.db, row.id, message, giveUp);
    return false;
  }
}

/** The worker's handler: sends a batch a few at a time, marks what went, and after a full batch calls `fetchAgain`. */
function batchHandler(d: Delivery, fetchAgain: () => void): (jobs: PgBoss.JobWithMetadata<MailJob>[]) => Promise<void> {
  return async function handle(jobs) {
    const ids = jobs.map((job) => job.data.outboxId);
    const rows = new Map((await d.db.select().from(outbox).where(inArray(outbox.id, ids))).map((row) => [row.id, row]));
    const sent: number[] = [];
    let next = 0;
    // `concurrency` lanes take the batch's jobs in order.
    async function lane(): Promise<void> {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const row = rows.get(job.data.outboxId);
        // Gone (deleted by hand) or already sent (its worker died before the job was completed): done.
        if (!row || row.status === "sent") continue;
        if (await deliver(d, job, row)) sent.push(row.id);
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.min(d.concurrency, jobs.length) }, lane));
    } finally {
      // One statement for the batch; pg-boss then completes the jobs. Should the process die
      // before, those jobs expire and go out again: at least once, never lost.
      await markSent(d.db, sent);
    }
    // A full batch: more is probably due, so fetch again at once instead of after the poll interval.
    if (jobs.length === d.batchSize) fetchAgain();
  };
}

/** The running worker's handle: its stop (once, however often it is called) stops waking, the queue, then the transport. */
function stoppableWorker(boss: PgBoss, transport: MailTransport, unsubscribe: () => void): MailWorker {
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        unsubscribe();
        await boss.stop({ graceful: true, timeout: 8_000 }); // within the shutdown's 10 s
        transport.close();
      })();
      return stopping;
    },
  };
}

/**
 * The Message-ID of an outbox row's mail: the same on every attempt (a retry after a send whose
 * answer was lost is recognisably the same message), unique across databases by the row's creation
 * time beside its id, and opaque (a visitor's confirmation does not tell how much mail the site
 * sends). The domain is the sender's, as RFC 5322 suggests.
 */
export function messageIdOf(row: Pick<OutboxRow, "id" | "createdAt">, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  const id = createHash("sha256").update(`${row.id}:${row.createdAt.toISOString()}`).digest("base64url").slice(0, 22);
  return `<${id}@${domain}>`;
}

/** The server's worker (one per process). */
let serverWorker: Promise<MailWorker> | undefined;

/**
 * Starts the server's worker on the open database, with the configured
 * transport, and has the shutdown stop it. Called by the server's start-up
 * (server/app.ts) once the database is open: explicitly, never as a side
 * effect of importing this module (tests import it and start their own).
 * Should it fail to start (the database went away meanwhile), it tries
 * again; the mail waits in the queue.
 */
export function startServerMailWorker(conn: Connection): Promise<MailWorker> {
  if (serverWorker) return serverWorker;
  const e = env();
  const transport = createMailTransport();
  const started = startMailWorker({
    conn,
    transport,
    from: e.MAIL_FROM,
    pollMs: e.MAIL_POLL_MS,
    maxAttempts: e.MAIL_MAX_ATTEMPTS,
    retryBaseMs: e.MAIL_RETRY_BASE_MS,
  });
  serverWorker = started;
  started.then(
    () => log.info({ transport: transport.description }, "mail worker started"),
    (error: unknown) => {
      log.error({ err: error }, "the mail worker could not start; trying again in 5 s");
      serverWorker = undefined;
      setTimeout(() => void startServerMailWorker(conn).catch(() => {}), 5_000).unref();
    },
  );
  // Finish the messages in flight before the database closes (a mail cut off
  // mid-send would go out again once its job expires).
  onShutdown(() => started.then((worker) => worker.stop()).catch(() => {}));
  return started;
}
