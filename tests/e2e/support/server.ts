/** The e2e server's address and environment, shared by the config and the tests. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DB_SOCKET_PORT = Number(process.env.E2E_DB_SOCKET_PORT ?? 5455);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? ".data-e2e";

export function e2eServerEnv(): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    PORT: String(E2E_PORT),
    SITE_URL: `http://localhost:${E2E_PORT}`,
    DATA_DIR: E2E_DATA_DIR,
    DB_SOCKET_PORT: String(E2E_DB_SOCKET_PORT),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    // Fixed secrets for the scratch server (production mode on a real database requires them).
    SESSION_SECRET: "e2e-session-secret-not-used-anywhere-else-0123456789",
    ALTCHA_HMAC_KEY: "e2e-altcha-hmac-key-not-used-anywhere-else-0123456789",
    DATA_ENCRYPTION_KEY: "6532652d646174612d656e6372797074696f6e2d6b65792d3031323334353637",
    // The tests read the mail the server writes; production on a real database must say so explicitly.
    MAIL_TRANSPORT: "files",
    // Production on a real database must name its card gateway: the sandbox, which takes no money.
    PAYMENT_GATEWAY: "sandbox",
    // As on fly.io: the visitor's IP is this header's (a test is a fresh visitor by sending a new
    // one); without it, the socket's address. X-Forwarded-For and the like are never read.
    CLIENT_IP_HEADER: "Fly-Client-IP",
    // The bot rules (a minimum fill time, a smaller budget for no-JS sum answers) have their own
    // tests; the rest of the suite fills forms faster than a person and answers the sum often.
    FORM_MIN_FILL_MS: "0",
    RATE_LIMIT_NOJS_MAX: "1000",
    // Every browser test is a new visitor from the same address, each making a cart of its own
    // (the limit itself: tests/integration/shop-cart.test.ts).
    CART_NEW_MAX: "1000",
  };
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  return env;
}

/** How tests reach the server's database: its own server, or the shared embedded one. */
export function e2eDatabaseUrl(): string {
  return process.env.E2E_DATABASE_URL ?? `postgres://postgres@127.0.0.1:${E2E_DB_SOCKET_PORT}/postgres?sslmode=disable`;
}
