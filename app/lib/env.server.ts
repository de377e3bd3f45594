import { z } from "~/lib/zod";

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
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
  ),
  DATA_DIR: z.string().default("./.data"),
  DB_SOCKET_PORT: z.coerce.number().int().min(0).max(65535).default(5433),
  SITE_URL: z
    .url()
    .default("http://localhost:3000")
    .transform((u) => u.replace(/\/+$/, "")),
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
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  MAIL_FROM: z.string().default("Dover Doors & Windows <no-reply@example.com>"),
  // Where the company copy of every submission goes.
  COMPANY_INBOX: z.string().default("info@example.com"),
  // Outbox worker: poll interval, attempts before giving up, first backoff step (doubles each time).
  // pg-boss polls at most every 500 ms and counts retry pauses in whole seconds (app/mail/worker.server.ts).
  MAIL_POLL_MS: z.coerce.number().int().min(500).default(5_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1_000).default(30_000),
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
  // Validated here: a mistyped entry stops the server at start, not every POST later.
  FORM_ALLOWED_ORIGINS: optionalString.pipe(
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        const origins: string[] = [];
        for (const raw of (value ?? "").split(",")) {
          const entry = raw.trim();
          if (!entry) continue;
          const url = URL.parse(entry);
          if (!url || !/^https?:$/.test(url.protocol) || url.origin === "null") {
            ctx.addIssue({
              code: "custom",
              message: `"${entry}" is not an http(s) origin such as https://www.example.com`,
            });
            return z.NEVER;
          }
          origins.push(url.origin);
        }
        return origins;
      }),
  ),
  // The one header that carries the visitor's IP, set by the platform's proxy (fly.io:
  // Fly-Client-IP). Unset: the TCP peer's address. No other header is ever read.
  CLIENT_IP_HEADER: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, "must be a header name such as Fly-Client-IP")
      .transform((name) => name.toLowerCase())
      .optional(),
  ),
  // Submissions answered through the no-JS sum (solvable by a script) get this tighter budget.
  RATE_LIMIT_NOJS_MAX: z.coerce.number().int().min(1).default(3),
  // New carts per client IP and RATE_LIMIT_WINDOW_SECONDS: an add without a cart cookie makes one,
  // so a script that drops its cookies would otherwise make a row per request.
  CART_NEW_MAX: z.coerce.number().int().min(1).default(20),
  // Bytes of uploaded files being written to the temporary folder at once, per instance: a post
  // whose files would go beyond it is answered 503 with Retry-After (app/http/temp-files.server.ts).
  UPLOAD_TEMP_BUDGET_BYTES: z.coerce
    .number()
    .int()
    .min(1_048_576)
    .default(512 * 1_048_576),
  // A form posted sooner than this after it was rendered is treated like a tripped honeypot.
  FORM_MIN_FILL_MS: z.coerce.number().int().min(0).default(2_000),
  // At most this many visitor confirmations per recipient address per day (the submission and
  // the company copy still go through).
  MAIL_CONFIRMATIONS_PER_DAY: z.coerce.number().int().min(0).default(3),
  // Sent outbox rows keep their bodies this many days; then the text is cleared (row and status stay).
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  // How mail leaves: smtp (SMTP_URL) or files in DATA_DIR/mail. Default: smtp when SMTP_URL is set,
  // files otherwise; production on DATABASE_URL refuses files unless this says so explicitly.
  MAIL_TRANSPORT: z.enum(["smtp", "files"]).optional(),
  // Where generated development secrets are kept (never inside DATA_DIR): default .secrets.json beside DATA_DIR.
  // `off`: generated secrets live in memory only, new ones every start (the unit tests: vitest.config.ts).
  SECRETS_FILE: optionalString,
  // ── Card payments (issue 16, app/payments) ──
  // sandbox (no money moves; the default) or authorizenet. Left unset it means sandbox, except in
  // production on DATABASE_URL, where the sandbox must be named explicitly (app/payments/gateway.server.ts).
  PAYMENT_GATEWAY: z.enum(["sandbox", "authorizenet"]).optional(),
  // Authorize.net API login id and transaction key (both needed with PAYMENT_GATEWAY=authorizenet).
  AUTHORIZENET_LOGIN_ID: optionalString,
  AUTHORIZENET_TRANSACTION_KEY: optionalString,
  // Which Authorize.net endpoint: sandbox (apitest.authorize.net) or production (api.authorize.net).
  AUTHORIZENET_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  // When the sandbox processor settles a charge or refund (app/payments/sandbox.server.ts): `cutoff`
  // (the default) at the next midnight in America/Detroit, so a void works the same day and a refund
  // after; `immediate` at once (refunds work at once, voids never: the e2e server's refund flows).
  SANDBOX_SETTLEMENT: optionalString.pipe(z.enum(["cutoff", "immediate"]).default("cutoff")),
  // How long a charge waits for the processor before its outcome is recorded as unknown (pending).
  PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  // How long a sender holds a ledger row it sends before the reconciler may take it over (default:
  // twice the timeout and 5 s): only the holder's answer completes the row.
  PAYMENT_LEASE_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  // A residential booking can be cancelled or moved online until this many hours before its
  // window starts, company time (DECISIONS 31); after that, by phone.
  BOOKING_CHANGE_CUTOFF_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 14)
    .default(24),
  // The reminder of a booked visit is e-mailed this many hours before its window starts (DECISIONS
  // 37): with the default 48 and the 24-hour cut-off, a day before online changes close.
  REMINDER_LEAD_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(48),
  // Paid residential bookings per service slot per day (DECISIONS 24).
  SERVICE_SLOT_CAPACITY: z.coerce.number().int().min(1).max(1_000).default(3),
  // ── Caches, database plumbing (issue 28 item 2: nothing else reads process.env) ──
  // `off` renders every page anew: no shared page cache, no remembered documents (app/http/page-cache.server.ts).
  PAGE_CACHE: optionalString.pipe(z.enum(["on", "off"]).default("on")),
  // Connections per instance to the PostgreSQL server (db/client.server.ts).
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1_000).default(10),
  // Where the SQL migrations are read from; unset: db/migrations under the working directory.
  MIGRATIONS_DIR: optionalString,
  // Templates of new embedded databases (db/pglite-template.server.ts); unset:
  // node_modules/.cache/pglite-template; `off`: every new DATA_DIR runs initdb.
  PGLITE_TEMPLATE_DIR: optionalString,
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const problems: string[] = [];
  if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.SESSION_SECRET) {
    problems.push("SESSION_SECRET: required in production with DATABASE_URL (32+ characters)");
  }
  if (env.MAIL_TRANSPORT === "smtp" && !env.SMTP_URL) problems.push("MAIL_TRANSPORT: smtp needs SMTP_URL");
  if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.SMTP_URL && env.MAIL_TRANSPORT !== "files") {
    problems.push(
      "SMTP_URL: required in production with DATABASE_URL (mail written to the machine's disk is lost at the next deploy); set MAIL_TRANSPORT=files to accept that explicitly",
    );
  }
  if (problems.length > 0) throw new Error(`Invalid environment configuration:\n  ${problems.join("\n  ")}`);
  return env;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
