import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { rateLimits } from "@db/schema";
import { env } from "~/lib/env.server";

/**
 * Per-IP rate limit kept in PostgreSQL (shared by every instance): a fixed
 * window counter per key. Each attempt counts, before the body is read.
 * A row carries the end of its window (`expiresAt`) and is pruned once that
 * has passed, whatever the window's length.
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

/** Counts one attempt; false when the key is over its limit in the current window. */
export async function takeRateLimit(
  db: DbOrTx,
  key: string,
  rule: RateLimitRule = defaultRateLimit(),
  now = Date.now(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const expiresAt = new Date(windowStart.getTime() + windowMs);
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
