import { pino } from "pino";
import { redactLinkSecrets } from "~/lib/secret-paths";
import { env } from "./env.server";

/**
 * One logger for the server. Card numbers, CVCs and SSNs are redacted by key; a link's token
 * (/booking/{token}, /order/{token}) wherever it stands in a line, a path, an error's message or
 * its stack (app/lib/secret-paths.ts).
 */
export const log = pino({
  level: env().LOG_LEVEL, // silent under vitest: vitest.config.ts sets LOG_LEVEL
  base: undefined,
  hooks: { streamWrite: redactLinkSecrets },
  redact: {
    paths: ["*.cardNumber", "*.cardCVC", "*.cvv", "*.ssn", "*.password", "cardNumber", "cardCVC", "cvv", "ssn"],
    censor: "[redacted]",
  },
});
