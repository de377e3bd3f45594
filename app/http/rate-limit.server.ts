import { lt, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { rateLimits } from "@db/schema";
import { env } from "~/lib/env.server";

/**
 * Per-IP rate limit kept in PostgreSQL (shared by every instance): a fixed
 * window counter per key. Each attempt counts, before the body is read.
 * A row carries the end of its window (`expiresAt`) and is pruned once that
 * has passed, whatever the window's length. This module is the only writer
 * of rate_limits: the outbox's per-mailbox confirmation counter goes through
 * countRateLimitsSql.
 */
export const RATE_LIMIT_MESSAGE =
  "You have sent this form several times in a short while. Please wait a few minutes and try again, or call us.";

export type RateLimitRule = { max: number; windowSeconds: number };

export function defaultRateLimit(): RateLimitRule {
  const e = env();
  return { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS };
}

/**
 * The tighter budget of submissions answered through the no-JS sum (issue 15,
 * DECISIONS 27): a script can solve "What is 4 + 7?", so it is a floor, not a
 * wall. Counted per form and IP, in the same window as the default rule.
 */
export function noJsRateLimit(): RateLimitRule {
  const e = env();
  return { max: e.RATE_LIMIT_NOJS_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS };
}

/** A counter's window: fixed, `seconds` long, aligned to the epoch (a day's starts at 00:00 UTC). */
export type RateLimitWindow = { start: Date; end: Date };

export function rateLimitWindow(seconds: number, now = Date.now()): RateLimitWindow {
  const ms = seconds * 1000;
  const start = new Date(Math.floor(now / ms) * ms);
  return { start, end: new Date(start.getTime() + ms) };
}

/**
 * Counts attempts from inside a caller's own statement: the counter upsert as
 * SQL for a CTE (`with counted as (${countRateLimitsSql(…)}) …`), so it runs
 * in the caller's statement and transaction, and the row lock it takes on a
 * counter holds a concurrent caller back until this one commits (the outbox's
 * confirmation cap counts exactly under concurrency this way).
 *
 * `counts` is a query of (key, n) rows: n attempts are added to each key's
 * counter in `window`, in key order (two callers never lock the same rows in
 * opposite orders). The CTE returns (key, count): each key's count after
 * these attempts.
 */
export function countRateLimitsSql(counts: SQL, window: RateLimitWindow): SQL {
  return sql`insert into rate_limits (key, window_start, count, expires_at)
    select c.key, ${window.start.toISOString()}::timestamptz, c.n, ${window.end.toISOString()}::timestamptz
    from (${counts}) as c (key, n) order by c.key
    on conflict (key, window_start) do update set count = rate_limits.count + excluded.count, expires_at = excluded.expires_at
    returning key, count`;
}

/** Counts one attempt; false when the key is over its limit in the current window. */
export async function takeRateLimit(
  db: DbOrTx,
  key: string,
  rule: RateLimitRule = defaultRateLimit(),
  now = Date.now(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const { start: windowStart, end: expiresAt } = rateLimitWindow(rule.windowSeconds, now);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1, expiresAt })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      // expiresAt again: a row written before the column existed (its default was the migration's now()) gets its window's end.
      set: { count: sql`${rateLimits.count} + 1`, expiresAt },
    })
    .returning({ count: rateLimits.count });
  const count = Number(row?.count ?? 1);
  return {
    allowed: count <= rule.max,
    retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000)),
  };
}

/** Drops counters whose window has ended (they can no longer refuse anyone). */
export async function pruneRateLimits(db: DbOrTx): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expiresAt, sql`now()`));
}
