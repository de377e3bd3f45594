import { z } from "zod";

/**
 * Every environment variable the server reads, parsed once at start.
 * Development defaults let `npm start` run with nothing set; secrets that
 * production must provide are generated into the data folder when the site
 * runs on its embedded database (see secrets.server.ts).
 */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  ),
  DATA_DIR: z.string().default("./.data"),
  DB_SOCKET_PORT: z.coerce.number().int().min(0).max(65535).default(5433),
  SITE_URL: z.url().default("http://localhost:3000").transform((u) => u.replace(/\/+$/, "")),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  ASSET_BASE_URL: optionalString.pipe(z.url().optional()).transform((u) => u?.replace(/\/+$/, "")),
  SHOP_URL: optionalString.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Google Maps JavaScript API (browser key, restricted by referrer): enables the interactive
  // service-area map. Without it the server-drawn SVG map is shown (DECISIONS 19).
  GOOGLE_MAPS_API_KEY: optionalString,
  // Google Places API (server key, never sent to the browser) and the place whose reviews to show.
  GOOGLE_PLACES_API_KEY: optionalString,
  GOOGLE_PLACE_ID: optionalString,
  // ── Lead capture: forms, captcha, mail (issue 4, app/forms + app/mail) ──
  // smtp(s)://user:pass@host:port; unset: messages are written to DATA_DIR/mail as .eml files.
  SMTP_URL: optionalString.pipe(z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional()),
  MAIL_FROM: z.string().default("Dover Doors & Windows <no-reply@example.com>"),
  // Where the company copy of every submission goes.
  COMPANY_INBOX: z.string().default("info@example.com"),
  // Outbox worker: poll interval, attempts before giving up, first backoff step (doubles each time).
  MAIL_POLL_MS: z.coerce.number().int().min(50).default(5_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  // Google reCAPTCHA v2: used when both are set; otherwise the self-hosted ALTCHA proof of work.
  RECAPTCHA_SITE_KEY: optionalString,
  RECAPTCHA_SECRET_KEY: optionalString,
  // HMAC key of the ALTCHA challenges and the no-JS sum; generated into DATA_DIR when unset
  // on the embedded database, required in production with DATABASE_URL.
  ALTCHA_HMAC_KEY: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  // PBKDF2 iterations per ALTCHA attempt (the proof-of-work difficulty).
  ALTCHA_COST: z.coerce.number().int().min(1).default(2_000),
  // AES-256-GCM key for data encrypted at rest (the SSN): 32 bytes as 64 hex characters or base64.
  // Generated into DATA_DIR when unset on the embedded database, required in production with DATABASE_URL.
  DATA_ENCRYPTION_KEY: optionalString,
  // Per form and client IP: at most RATE_LIMIT_MAX submissions per RATE_LIMIT_WINDOW_SECONDS.
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  // Extra origins (comma-separated) allowed to POST forms besides SITE_URL and the request's host.
  FORM_ALLOWED_ORIGINS: optionalString,
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.SESSION_SECRET) {
    throw new Error(
      "Invalid environment configuration:\n  SESSION_SECRET: required in production with DATABASE_URL (32+ characters)",
    );
  }
  return env;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
