import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { outbox } from "@db/schema";

/**
 * The outbox (DECISIONS 20): a mail is a row written in the same transaction
 * as the submission that caused it; the worker delivers it later. A mail
 * outage therefore never loses or blocks a submission.
 */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  source?: { table: string; id: number };
};

export type OutboxRow = typeof outbox.$inferSelect;

const wakeListeners = new Set<() => void>();

/** Lets the in-process worker send right after a commit instead of at its next poll. */
export function onMailEnqueued(listener: () => void): () => void {
  wakeListeners.add(listener);
  return () => wakeListeners.delete(listener);
}

export function wakeMailWorker(): void {
  for (const listener of wakeListeners) listener();
}

/** Writes the mails in one statement (one round trip), in order; returns their ids. */
export async function enqueueMail(tx: DbOrTx, ...mails: OutgoingMail[]): Promise<number[]> {
  if (mails.length === 0) return [];
  const rows = await tx
    .insert(outbox)
    .values(
      mails.map((mail) => ({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? null,
        replyTo: mail.replyTo ?? null,
        sourceTable: mail.source?.table ?? null,
        sourceId: mail.source?.id ?? null,
      })),
    )
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}

/**
 * Claims up to `limit` due messages for this worker: pending ones whose time
 * has come, and 'sending' ones whose lease ran out (a worker died mid-send).
 * FOR UPDATE SKIP LOCKED makes concurrent workers on other instances take
 * different rows; the lease keeps them from taking a row another one holds.
 */
export async function claimDueMail(db: DbOrTx, limit: number, leaseMs: number): Promise<OutboxRow[]> {
  const result = await db.execute(sql`
    update ${outbox} set
      status = 'sending',
      attempts = ${outbox.attempts} + 1,
      locked_until = now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval
    where ${outbox.id} in (
      select ${outbox.id} from ${outbox}
      where (${outbox.status} = 'pending' and ${outbox.nextAttemptAt} <= now())
         or (${outbox.status} = 'sending' and ${outbox.lockedUntil} < now())
      order by ${outbox.id}
      limit ${limit}
      for update skip locked
    )
    returning ${outbox.id} as id`);
  const ids = rowsOf(result).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(asc(outbox.id));
}

function rowsOf(result: unknown): { id: unknown }[] {
  // postgres-js returns an array; PGlite an object with `rows`.
  if (Array.isArray(result)) return result as { id: unknown }[];
  return ((result as { rows?: { id: unknown }[] }).rows ?? []) as { id: unknown }[];
}

export async function markSent(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(outbox)
    .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, "sending")));
}

export async function markFailed(db: DbOrTx, row: OutboxRow, error: string, maxAttempts: number, retryBaseMs: number): Promise<void> {
  const giveUp = row.attempts >= maxAttempts;
  const delayMs = Math.min(retryBaseMs * 2 ** Math.max(0, row.attempts - 1), 6 * 60 * 60 * 1000);
  await db
    .update(outbox)
    .set({
      status: giveUp ? "failed" : "pending",
      lockedUntil: null,
      lastError: error.slice(0, 1000),
      nextAttemptAt: sql`now() + ${`${delayMs} milliseconds`}::interval`,
    })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "sending")));
}
