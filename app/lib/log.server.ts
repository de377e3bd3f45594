import { pino } from "pino";
import { env } from "./env.server";

/** One logger for the server. Card numbers, CVCs and SSNs are redacted by key. */
export const log = pino({
  level: env().LOG_LEVEL, // silent under vitest: vitest.config.ts sets LOG_LEVEL
  base: undefined,
  redact: {
    paths: ["*.cardNumber", "*.cardCVC", "*.cvv", "*.ssn", "*.password", "cardNumber", "cardCVC", "cvv", "ssn"],
    censor: "[redacted]",
  },
});
