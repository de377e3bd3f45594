import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { addJobs } from "@db/queue.server";
import { resultRows } from "@db/result-rows";
import { outbox, type MailAttachment, type MailContent, type OutboxKind } from "@db/schema";
import { countRateLimitsSql, rateLimitWindow } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { mailboxKey } from "./mailbox";

/**
 * The outbox (DECISIONS 20): a mail is a row written in the same transaction
 * as the submission that caused it, with a job on the `mail` queue (pg-boss,
 * docs/decisions/045-job-queue.md) that names it; the worker delivers it
 * later. A mail outage therefore never loses or blocks a submission. The row
 * is the mail's record (what, to whom, sent when, the last error); the queue
 * owns when it is tried, how often, and who tries it.
 */
export const MAIL_QUEUE = "mail";

/** What a mail job carries: the outbox row to send. */
export type MailJob = { outboxId: number };

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A submission's mail: the worker renders its HTML from this when it sends it (instead of `html`). */
  content?: MailContent;
  replyTo?: string;
  source?: { table: string; id: number };
  /**
   * 'company' (default): the company's copy, always written. 'confirmation':
   * the visitor's copy, written only while its mailbox (mailboxKey) has had
   * fewer than MAIL_CONFIRMATIONS_PER_DAY confirmations in the last 24 hours.
   */
  kind?: OutboxKind;
  /** Files sent with it (a booking's calendar invitation); cleared with the body. */
  attachments?: MailAttachment[];
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

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Writes the mails in one statement, in order, and their jobs in a second;
 * returns the ids of the rows written (a capped confirmation has none).
 *
 * The visitor's confirmation goes to whatever address was typed into a form,
 * with the visitor's name and text in it: unchecked, the site is a relay for
 * anyone who can solve a captcha (issue 15). So a 'confirmation' is written
 * only when its mailbox is under MAIL_CONFIRMATIONS_PER_DAY on two counts,
 * both in this same statement. The mailbox (mailboxKey, stored in the row's
 * `mailbox`) is the address in lower case without a +tag, and at Gmail
 * without dots (issue 28 item 7): `victim+1@example.org` is counted with
 * `victim@example.org`, though each mail goes to the address as typed.
 *
 *  - the confirmations in the outbox over the last 24 hours (a rolling day);
 *  - a counter per mailbox and UTC day in rate_limits, counted by the rate
 *    limits' own upsert (countRateLimitsSql) inside this statement. The
 *    outbox count alone cannot see a concurrent submission's uncommitted row,
 *    so a burst of simultaneous posts would all pass it; the counter's upsert
 *    waits on the row lock of a concurrent one and counts after it, so the cap
 *    holds exactly under concurrency (the lock is held until the submission
 *    commits: a few ms).
 *
 * The company copy is never capped: every stored submission reaches the company.
 */
export async function enqueueMail(tx: DbOrTx, ...mails: OutgoingMail[]): Promise<number[]> {
  if (mails.length === 0) return [];
  const max = env().MAIL_CONFIRMATIONS_PER_DAY;
  const values = sql.join(
    mails.map((mail, i) => {
      // Sent as text and cast by the server: no driver's own JSON handling can turn it into a JSON string.
      const attachments = mail.attachments?.length ? JSON.stringify(mail.attachments) : null;
      const content = mail.content ? JSON.stringify(mail.content) : null;
      return sql`(${i}::int, ${mail.to}::text, ${mailboxKey(mail.to)}::text, ${mail.replyTo ?? null}::text, ${mail.subject}::text, ${mail.text}::text, ${mail.html ?? null}::text, ${content}::text::jsonb, ${
        mail.source?.table ?? null
      }::text, ${mail.source?.id ?? null}::int, ${mail.kind ?? "company"}::text, ${attachments}::text::jsonb)`;
    }),
    sql`, `,
  );
  const confirmationsToday = sql`select ${CONFIRMATION_KEY_PREFIX} || mailbox, count(*)::int from mail where kind = 'confirmation' group by mailbox`;
  const result = await tx.execute(sql`
    with mail (ord, "to", mailbox, reply_to, subject, text, html, content, source_table, source_id, kind, attachments) as (values ${values}),
    counted as (${countRateLimitsSql(confirmationsToday, rateLimitWindow(DAY_SECONDS))})
    insert into outbox ("to", mailbox, reply_to, subject, text, html, content, source_table, source_id, kind, attachments)
    select "to", mailbox, reply_to, subject, text, html, content, source_table, source_id, kind, attachments from mail
    where kind <> 'confirmation' or (
      (select c.count from counted c where c.key = ${CONFIRMATION_KEY_PREFIX} || mail.mailbox) <= ${max}
      and (
        select count(*) from outbox o
        where o.kind = 'confirmation' and o.mailbox = mail.mailbox and o.created_at > now() - interval '24 hours'
      ) < ${max}
    )
    order by ord
    returning id`);
  const ids = resultRows<{ id: number }>(result)
    .map((row) => Number(row.id))
    .sort((x, y) => x - y);
  await addJobs(
    tx,
    MAIL_QUEUE,
    ids.map((outboxId): MailJob => ({ outboxId })),
  );
  return ids;
}

/** The rate_limits key of a mailbox's daily confirmation counter (its mailboxKey follows). */
export const CONFIRMATION_KEY_PREFIX = "confirmation:";

/** Marks delivered mails sent, in one statement. */
export async function markSent(db: DbOrTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ status: "sent", sentAt: sql`now()`, attempts: sql`${outbox.attempts} + 1`, lastError: null })
    .where(inArray(outbox.id, [...ids]));
}

/** Records a failed attempt; `giveUp`: it was the last one (its job will not be retried). */
export async function markFailed(db: DbOrTx, id: number, error: string, giveUp: boolean): Promise<void> {
  await db
    .update(outbox)
    .set({
      status: giveUp ? "failed" : "pending",
      attempts: sql`${outbox.attempts} + 1`,
      lastError: error.slice(0, 1000),
    })
    .where(eq(outbox.id, id));
}

/**
 * Retention (DECISIONS 28): the bodies of mails sent more than `days` ago are
 * cleared, attachments included — they hold whole submissions (an employment
 * application's details, a booking's address) and the links with a token to a
 * booking's or an order's page (issue 38 item 8) — and so are those of mails the
 * worker gave up on (`failed`) that were written more than `days` ago: a mail
 * that never went out is no reason to keep its text longer. The row stays with
 * its recipient, subject, status and dates, so what was sent when can still be
 * answered. A mail still pending is left alone: it may yet go out.
 */
export async function clearSentBodies(db: DbOrTx, days: number): Promise<void> {
  const before = sql`now() - ${`${days} days`}::interval`;
  await db
    .update(outbox)
    .set({ text: "", html: null, content: null, attachments: null, clearedAt: sql`now()` })
    .where(
      and(
        isNull(outbox.clearedAt),
        or(
          and(eq(outbox.status, "sent"), lt(outbox.sentAt, before)),
          and(eq(outbox.status, "failed"), lt(outbox.createdAt, before)),
        ),
      ),
    );
}
