import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { rateLimits } from "@db/schema";
import { env } from "~/lib/env.server";

/**
 * Per-IP rate limit kept in PostgreSQL (shared by every instance): a fixed
 * window counter per key. Each attempt counts, before the body is read.
 */
export const RATE_LIMIT_MESSAGE =
  "You have sent this form several times in a short while. Please wait a few minutes and try again, or call us.";

export type RateLimitRule = { max: number; windowSeconds: number };

export function defaultRateLimit(): RateLimitRule {
  const e = env();
  return { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS };
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
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  const count = Number(row?.count ?? 1);
  return {
    allowed: count <= rule.max,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)),
  };
}

/** Drops windows older than a day. */
export async function pruneRateLimits(db: DbOrTx): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`));
}
