import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Captcha tokens already used (hash only), kept until they would expire anyway. */
export const captchaSpent = pgTable("captcha_spent", {
  tokenHash: text("token_hash").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
