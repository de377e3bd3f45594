import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
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
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      or(
        and(eq(outbox.status, "pending"), lte(outbox.nextAttemptAt, sql`now()`)),
        and(eq(outbox.status, "sending"), lt(outbox.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(outbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  // One round trip: the claimed rows come back whole.
  const rows = await db
    .update(outbox)
    .set({
      status: "sending",
      attempts: sql`${outbox.attempts} + 1`,
      lockedUntil: sql`now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval`,
    })
    .where(inArray(outbox.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** Marks delivered rows sent, in one statement (only rows this worker still holds). */
export async function markSent(db: DbOrTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(and(inArray(outbox.id, [...ids]), eq(outbox.status, "sending")));
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
