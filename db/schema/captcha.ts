import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Captcha tokens already used (hash only), kept until they would expire anyway. */
export const captchaSpent = pgTable(
  "captcha_spent",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  // The hourly prune finds the expired tokens by it (docs/decisions/073-background-statements-use-indexes.md).
  (t) => [index("captcha_spent_expires_idx").on(t.expiresAt)],
);
