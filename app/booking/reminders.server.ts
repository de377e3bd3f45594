import { and, eq, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Connection, Database, DbOrTx } from "@db/client.server";
import { addJobs, ensureQueue, loadPgBoss } from "@db/queue.server";
import { bookingEvents, serviceRequests } from "@db/schema";
import { decryptText, encryptText, type CipherPlace } from "~/lib/crypto.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { onShutdown } from "~/lib/startup.server";
import { wakeMailWorker } from "~/mail/outbox.server";
import { enqueueReminder } from "~/mail/reminder-mail.server";
import { isServiceTime, type ServiceTime } from "~/booking/service-price";
import { canChangeOnline, changeDeadline, windowStart } from "./cutoff";
import { addressLine, bookingMailFacts } from "./facts.server";
import { managePath, manageTokenHash } from "./reference.server";
import { visitDay } from "./visit-day";

/**
 * The reminder of a booked visit (issue 29 item 6, docs/decisions/057-booking-reminders.md and
 * 071-reminders-and-invitation.md): an e-mail REMINDER_LEAD_HOURS (48 by default, DECISIONS 37)
 * before the window starts, with the window, the address, the manage link and until when the
 * visit can still be moved or cancelled online (the cut-off, 24 hours by default: the reminder
 * comes a day before it). It is a pg-boss job on the `booking-reminder` queue that waits for its
 * time (`startAfter`), one per booking (`singletonKey`, a "short" queue: at most one waiting job
 * per key), written in the booking's own transaction and removed or moved in the transaction that
 * cancels or moves the visit. The manage token is stored only as its hash, so the job carries the
 * token encrypted (bound to the job's place), never in clear.
 *
 * When it runs it mails only a booking that is still on, still at the time the job was made for
 * (a job left from an earlier time is stale) and whose window has not started, and only once per
 * visit time (a 'reminder sent' history line, written with the mail, is the record).
 */
export const REMINDER_QUEUE = "booking-reminder";

/** What a reminder job carries: the booking, the visit it was made for, the manage token encrypted. */
export type ReminderJob = { bookingId: number; serviceDate: string; serviceTime: string; token: string };

/** The visit a reminder is for. */
export type ReminderVisit = { id: number; serviceDate: string; serviceTime: string };

/**
 * The queue, created with these settings where it is missing (no migration made it): a "short"
 * queue keeps one waiting job per singleton key; a failed run is retried 5 times, a minute apart
 * and growing; a run whose worker died is retried after 5 minutes.
 */
const QUEUE_OPTIONS = {
  policy: "short",
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 300,
} as const satisfies Omit<PgBoss.Queue, "name">;

const reminderKey = (bookingId: number) => `booking:${bookingId}`;

/** Where a job's token is stored: bound into its ciphertext, so it opens only in this booking's job. */
export const reminderPlace = (bookingId: number): CipherPlace => ({
  table: "pgboss.job",
  column: "data",
  row: `${REMINDER_QUEUE}:${bookingId}`,
});

function serviceTime(value: string): ServiceTime {
  if (!isServiceTime(value)) throw new RangeError(`not a service window: ${value}`);
  return value;
}

/** When a visit's reminder is due: REMINDER_LEAD_HOURS real hours before its window starts (DST included). */
export function reminderDueAt(serviceDate: string, time: string): Date {
  return new Date(windowStart(serviceDate, serviceTime(time)).getTime() - env().REMINDER_LEAD_HOURS * 3_600_000);
}

/**
 * Adds the visit's reminder in the caller's transaction, due REMINDER_LEAD_HOURS before its
 * window; returns when, or null when that moment has passed: a booking made less than the lead
 * time ahead gets no reminder (its receipt, mailed now, already says until when it can be changed
 * online, or that it no longer can: policy.ts's onlineChangesSentence). A booking has at most one
 * waiting reminder: when the visit changes, call moveReminder.
 */
export async function scheduleReminder(
  tx: DbOrTx,
  booking: ReminderVisit,
  token: string,
  now: Date = new Date(),
): Promise<Date | null> {
  const due = reminderDueAt(booking.serviceDate, booking.serviceTime);
  if (due.getTime() <= now.getTime()) return null;
  await ensureQueue(tx, REMINDER_QUEUE, QUEUE_OPTIONS);
  const data: ReminderJob = {
    bookingId: booking.id,
    serviceDate: booking.serviceDate,
    serviceTime: booking.serviceTime,
    token: encryptText(token, reminderPlace(booking.id)),
  };
  await addJobs(tx, REMINDER_QUEUE, [data], { startAfter: due, singletonKey: reminderKey(booking.id) });
  return due;
}

/**
 * Removes the booking's reminder that has not run yet, in the caller's transaction (a cancelled
 * booking gets none). One already running is left to its handler, which reads the booking under
 * its lock and sends nothing for a cancelled or moved visit.
 */
export async function dropReminder(tx: DbOrTx, bookingId: number): Promise<void> {
  await tx.execute(
    sql`delete from pgboss.job
        where name = ${REMINDER_QUEUE} and singleton_key = ${reminderKey(bookingId)} and state in ('created', 'retry')`,
  );
}

/** The visit moved: its waiting reminder replaced by one for the new time (or none, if that is within the lead time). */
export async function moveReminder(
  tx: DbOrTx,
  booking: ReminderVisit,
  token: string,
  now: Date = new Date(),
): Promise<Date | null> {
  await dropReminder(tx, booking.id);
  return scheduleReminder(tx, booking, token, now);
}

/** What a reminder job did: only "sent" wrote a mail. */
export type ReminderOutcome =
  "sent" | "already sent" | "cancelled" | "moved" | "started" | "not found" | "link unusable";

/**
 * Runs one reminder job: the booking read under its row lock (a cancellation or a move waits for
 * it, or it for them), then, if it is still due, the mail in the outbox and the history line, in
 * one transaction. Run again (a retry after a lost completion), it finds the history line and
 * sends nothing.
 */
export async function sendReminder(db: Database, job: ReminderJob, now: Date = new Date()): Promise<ReminderOutcome> {
  const outcome = await db.transaction(async (tx): Promise<ReminderOutcome> => {
    const [row] = await tx
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, job.bookingId))
      .for("update")
      .limit(1);
    if (!row || row.kind !== "residential" || !row.manageTokenHash || !isServiceTime(row.serviceTime))
      return "not found";
    if (row.bookingStatus === "cancelled" || row.bookingStatus === "cancellation pending") return "cancelled";
    // A job made for another time: the visit moved since (its new reminder is another job).
    if (row.serviceDate !== job.serviceDate || row.serviceTime !== job.serviceTime) return "moved";
    if (now.getTime() >= windowStart(row.serviceDate, row.serviceTime).getTime()) return "started";
    const [sent] = await tx
      .select({ id: bookingEvents.id })
      .from(bookingEvents)
      .where(
        and(
          eq(bookingEvents.serviceRequestId, row.id),
          eq(bookingEvents.kind, "reminder sent"),
          eq(bookingEvents.toDate, row.serviceDate),
          eq(bookingEvents.toTime, row.serviceTime),
        ),
      )
      .limit(1);
    if (sent) return "already sent";
    let token: string;
    try {
      token = decryptText(job.token, reminderPlace(row.id));
    } catch {
      return "link unusable";
    }
    // Never a link that would not open this booking.
    if (manageTokenHash(token) !== row.manageTokenHash) return "link unusable";

    const e = env();
    const cutoff = e.BOOKING_CHANGE_CUTOFF_HOURS;
    const facts = await bookingMailFacts(tx, row, "Service visit reminder.");
    await enqueueReminder(tx, {
      booking: facts.mail,
      date: row.serviceDate,
      day: visitDay(row.serviceDate),
      window: row.serviceTime,
      address: addressLine(row),
      manageUrl: `${e.SITE_URL}${managePath(token)}`,
      changeUntil: canChangeOnline(row.serviceDate, row.serviceTime, cutoff, now)
        ? changeDeadline(row.serviceDate, row.serviceTime, cutoff)
        : null,
      now,
    });
    await tx.insert(bookingEvents).values({
      serviceRequestId: row.id,
      kind: "reminder sent",
      toDate: row.serviceDate,
      toTime: row.serviceTime,
      note: "Reminder e-mailed.",
    });
    return "sent";
  });
  if (outcome === "sent") wakeMailWorker();
  return outcome;
}

export type ReminderWorkerOptions = {
  conn: Pick<Connection, "db" | "queue">;
  /** How often the queue is asked for due reminders (they are due on the hour; a poll is cheap). */
  pollMs?: number;
  batchSize?: number;
};

export type ReminderWorker = { stop(): Promise<void> };

/**
 * The worker of the reminder queue: due jobs fetched a batch at a time, each run on its own (a
 * failure fails only its job, which pg-boss retries). Its pg-boss instance does not supervise:
 * the mail worker's does, and pg-boss's expiry, archive and deletion cover every queue. On
 * PostgreSQL it keeps one connection of its own.
 */
export async function startReminderWorker({
  conn,
  pollMs = 30_000,
  batchSize = 10,
}: ReminderWorkerOptions): Promise<ReminderWorker> {
  const Boss = await loadPgBoss();
  const boss = new Boss({
    ...("connectionString" in conn.queue ? { ...conn.queue, max: 1 } : conn.queue),
    supervise: false,
    schedule: false,
  });
  boss.on("error", (error: unknown) => log.error({ err: error }, "reminder queue error"));
  await boss.start();
  await ensureQueue(conn.db, REMINDER_QUEUE, QUEUE_OPTIONS);
  await boss.updateQueue(REMINDER_QUEUE, { name: REMINDER_QUEUE, ...QUEUE_OPTIONS });

  const workerId = await boss.work<ReminderJob>(
    REMINDER_QUEUE,
    { batchSize, pollingIntervalSeconds: Math.max(0.5, pollMs / 1000) },
    async (jobs) => {
      for (const job of jobs) {
        try {
          const outcome = await sendReminder(conn.db, job.data);
          if (outcome === "link unusable")
            log.error({ bookingId: job.data.bookingId }, "reminder not sent: link unusable");
          else log.info({ bookingId: job.data.bookingId, outcome }, "booking reminder");
        } catch (error) {
          log.warn({ bookingId: job.data.bookingId, err: error }, "booking reminder failed; pg-boss retries it");
          await boss.fail(REMINDER_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) });
        }
      }
      // A full batch: more are probably due (a morning's bookings), so fetch again at once.
      if (jobs.length === batchSize) boss.notifyWorker(workerId);
    },
  );

  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= boss.stop({ graceful: true, timeout: 8_000 }); // within the shutdown's 10 s
      return stopping;
    },
  };
}

/** The server's reminder worker (one per process). */
let serverWorker: Promise<ReminderWorker> | undefined;

/**
 * Starts the server's reminder worker on the open database and has the shutdown stop it (called
 * by server/app.ts beside the mail worker). Should it fail to start, it tries again in 5 s; the
 * reminders wait in the queue.
 */
export function startServerReminderWorker(conn: Connection): Promise<ReminderWorker> {
  if (serverWorker) return serverWorker;
  const started = startReminderWorker({ conn });
  serverWorker = started;
  started.then(
    () => log.info("reminder worker started"),
    (error: unknown) => {
      log.error({ err: error }, "the reminder worker could not start; trying again in 5 s");
      serverWorker = undefined;
      setTimeout(() => void startServerReminderWorker(conn).catch(() => {}), 5_000).unref();
    },
  );
  onShutdown(() => started.then((worker) => worker.stop()).catch(() => {}));
  return started;
}
