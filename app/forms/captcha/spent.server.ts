import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { captchaSpent } from "@db/schema";
import { sha256 } from "~/lib/crypto.server";

/**
 * Marks a captcha token as used. Returns false when it was used before (a
 * replay). Shared by every instance through the database.
 */
export async function spendToken(db: DbOrTx, tokenId: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(captchaSpent)
    .values({ tokenHash: sha256(tokenId), expiresAt })
    .onConflictDoNothing()
    .returning({ tokenHash: captchaSpent.tokenHash });
  return rows.length === 1;
}

/** Forget tokens that would have expired anyway. */
export async function pruneSpentTokens(db: DbOrTx): Promise<void> {
  await db.delete(captchaSpent).where(lt(captchaSpent.expiresAt, sql`now()`));
}
