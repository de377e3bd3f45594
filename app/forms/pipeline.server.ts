import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database, Tx } from "@db/client.server";
import { submissionKeys } from "@db/schema";
import { getDb } from "~/lib/db.server";
import { company } from "~/content/company";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { wakeMailWorker } from "~/mail/outbox.server";
import type { MailRow } from "~/mail/render.server";
import { enqueueSubmissionMail } from "~/mail/submission-mail.server";
import { hasCaptchaResponse, verifyCaptcha } from "./captcha/verifier.server";
import { CAPTCHA_FIELDS, CAPTCHA_MESSAGE } from "./captcha/types";
import { rateLimitSubject } from "./client-ip.server";
import { HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD, isHoneypotTripped } from "./honeypot.server";
import { CROSS_ORIGIN_MESSAGE, isCrossOrigin } from "./origin.server";
import { noJsRateLimit, RATE_LIMIT_MESSAGE, takeRateLimit, type RateLimitRule } from "./rate-limit.server";
import { CHECK_FIELDS_MESSAGE, SUBMISSION_KEY_FIELD, THROWN_ERROR } from "./result";
import { BodyError, readBody, storeUploads, type AcceptedUpload, type ParsedBody, type UploadRule } from "./uploads.server";

/**
 * THE form pipeline (issue 4). Every form — HTML page or /api/store/* JSON
 * route — goes through `runForm`:
 *
 *   origin check → per-IP rate limit → body (streamed; files judged by their
 *   bytes) → honeypot → zod schema (the one Conform uses in the browser) and
 *   upload rules → captcha → ONE transaction: the form's `handle` (its row, and
 *   for paid forms the gateway call and payment row), its uploads, its
 *   outbox e-mails → a result.
 *
 * A form is a definition: its identity (id, upload rule, secret fields:
 * `./<form>/identity.ts`, which its Form.tsx reads too) + schema + `handle`
 * (its table) + a view. Nothing else is copied. `handle` may throw
 * `FormFailure` to roll everything back with a message (e.g. a declined card),
 * and may ask for a redirect after success.
 *
 * Around it: the route glue (`formAction`, `apiFormAction`, `formBootstrap`)
 * in ./actions.server.ts, the e-mails' texts and recipients in
 * ~/mail/submission-mail.server.ts.
 */
export type SubmissionContext = {
  request: Request;
  clientIp: string | null;
  /** Path the form was sent to (its page, or the API path). */
  page: string;
  uploads: AcceptedUpload[];
  /** True for /api/store/* JSON routes. */
  api: boolean;
};

export type Handled = {
  submission: { table: string; id: number };
  /** The company copy's label/value rows (leave out or mask anything secret). */
  summary: MailRow[];
  /** Name shown in the subject line, e.g. "Jane Doe". */
  name: string;
  /** The visitor's address, for Reply-To and the confirmation. */
  email?: string;
  /** Extra sentence in the visitor's confirmation. */
  confirmationNote?: string;
  /** The success message, when it differs from the definition's. */
  message?: string;
  /** After success, go here (HTML) / report it (API). */
  redirectTo?: string;
};

export type FormDefinition<Schema extends z.ZodType = z.ZodType> = {
  /** Stable id ('contact', 'quote', …), also the rate-limit bucket. */
  id: string;
  /** What it is, for e-mail subjects: "contact message", "quote request". */
  noun: string;
  schema: Schema;
  uploads?: UploadRule;
  successMessage: string;
  /**
   * Fields that are never sent back: not re-rendered into the form, not in
   * hydration data, so never in a cached document either (an SSN, a card
   * number, a CVC). The visitor types them again after a refusal.
   */
  secretFields?: readonly string[];
  /** The commercial service form keeps its values after success (SPEC §4). */
  keepValuesOnSuccess?: boolean;
  rateLimit?: RateLimitRule;
  handle(tx: Tx, value: z.output<Schema>, ctx: SubmissionContext): Promise<Handled>;
};

/** Thrown by a handler to roll back and answer with this message (and field errors). */
export class FormFailure extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly status = 400,
  ) {
    super(message);
    this.name = "FormFailure";
  }
}

export type FormOutcome = {
  ok: boolean;
  status: number;
  message: string;
  fieldErrors: Record<string, string[]>;
  /** Conform's result: errors beside their fields, values kept (or reset). */
  reply: SubmissionResult<string[]> | null;
  redirectTo?: string;
  submissionId?: number;
  headers?: Record<string, string>;
};

export type RunOptions = {
  /** The database (tests pass their own); defaults to the server's. */
  db?: Database;
  /** Values that win over the body (e.g. quote_type from the API path). */
  overrides?: Record<string, string>;
  /** Normalised URL of the request (React Router's `url` argument). */
  url?: URL;
  api?: boolean;
  /** The visitor's IP as the server determined it (the load context's clientIpContext). */
  clientIp?: string | null;
};

/** Never echoed back into a form (captcha, honeypot, secrets that must be typed again). */
const HIDDEN_FIELDS = [...CAPTCHA_FIELDS, HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD];

function failure(status: number, message: string, extra: Partial<FormOutcome> = {}): FormOutcome {
  return { ok: false, status, message, fieldErrors: {}, reply: null, ...extra };
}

/** A Conform result that keeps the given values (no-JS re-render) without validating them. */
function valuesOnlyReply(fields: FormData | null, schema: z.ZodType, hidden: string[]): SubmissionResult<string[]> | null {
  if (!fields) return null;
  const submission = parseWithZod(fields, { schema });
  const result = submission.reply({ hideFields: hidden });
  return { ...result, status: "error", error: {} };
}

export async function runForm<S extends z.ZodType>(
  def: FormDefinition<S>,
  request: Request,
  options: RunOptions = {},
): Promise<FormOutcome> {
  const url = options.url ?? new URL(request.url);
  const page = url.pathname.replace(/\.data$/, "") || "/";
  const api = options.api ?? false;
  const clientIp = options.clientIp ?? null;
  const hidden = [...HIDDEN_FIELDS, ...(def.secretFields ?? [])];
  let body: ParsedBody | undefined;

  try {
    if (request.method.toUpperCase() !== "POST") return failure(405, "Please send the form with POST.");
    if (isCrossOrigin(request)) return failure(403, CROSS_ORIGIN_MESSAGE);

    const db = options.db ?? (await getDb());
    const limit = await takeRateLimit(db, `${def.id}:${rateLimitSubject(clientIp)}`, def.rateLimit);
    if (!limit.allowed) {
      // Keep what the visitor typed (no-JS), but never spend effort on files.
      const body = await readBody(request).catch(() => null);
      return failure(429, RATE_LIMIT_MESSAGE, {
        reply: valuesOnlyReply(body?.fields ?? null, def.schema, hidden),
        headers: { "Retry-After": String(limit.retryAfterSeconds) },
      });
    }

    let parsed: ParsedBody;
    try {
      parsed = body = await readBody(request, def.uploads);
    } catch (error) {
      if (error instanceof BodyError) return failure(error.status, error.message);
      throw error;
    }
    for (const [key, value] of Object.entries(options.overrides ?? {})) parsed.fields.set(key, value);

    // A filled, missing (HTML posts) or too-quickly posted honeypot: store nothing, answer like a success.
    if (isHoneypotTripped(parsed.fields, { required: !api, minFillMs: env().FORM_MIN_FILL_MS })) {
      log.info({ form: def.id, ip: clientIp }, "honeypot tripped; submission dropped");
      return { ok: true, status: 200, message: def.successMessage, fieldErrors: {}, reply: { initialValue: null } };
    }

    const submissionKey = readSubmissionKey(parsed.fields);
    const submission = parseWithZod(parsed.fields, { schema: def.schema });
    // The answer to a submission that was stored: its success, whether now or on a resubmission.
    const stored = (id?: number, handled?: Handled): FormOutcome => ({
      ok: true,
      status: 200,
      message: handled?.message ?? def.successMessage,
      fieldErrors: {},
      reply: def.keepValuesOnSuccess
        ? submission.reply({ hideFields: [...hidden, SUBMISSION_KEY_FIELD] })
        : submission.reply({ resetForm: true }),
      redirectTo: handled?.redirectTo,
      submissionId: id,
    });
    const fieldErrors: Record<string, string[]> = { ...parsed.uploadErrors };
    if (submission.status !== "success") {
      for (const [name, messages] of Object.entries(submission.error ?? {})) {
        if (messages?.length) fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
      }
    }
    const captchaMissing = !hasCaptchaResponse(parsed.fields);
    if (Object.keys(fieldErrors).length > 0) {
      return failure(400, captchaMissing ? CAPTCHA_MESSAGE : CHECK_FIELDS_MESSAGE, {
        fieldErrors,
        reply: submission.reply({ fieldErrors: parsed.uploadErrors, hideFields: hidden }),
      });
    }
    // A Conform "intent" (client-side validation request) is not a submission.
    if (submission.status !== "success") return failure(400, CHECK_FIELDS_MESSAGE, { reply: submission.reply({ hideFields: hidden }) });

    const captcha = captchaMissing ? false : await verifyCaptcha(db, parsed.fields, clientIp);
    // A resubmission of a form already stored (a refresh, a retry after an
    // uncertain answer) carries a spent captcha: answer it as the success it was.
    if (!captcha && submissionKey) {
      const earlier = await storedSubmission(db, submissionKey);
      if (earlier) return stored(earlier.submissionId);
    }
    if (!captcha) {
      return failure(400, CAPTCHA_MESSAGE, {
        reply: submission.reply({ formErrors: [CAPTCHA_MESSAGE], hideFields: hidden }),
      });
    }
    // The no-JS sum is solvable by a script: answers through it get a tighter budget of their own.
    if (captcha === "sum") {
      const nojs = await takeRateLimit(db, `nojs:${def.id}:${rateLimitSubject(clientIp)}`, noJsRateLimit());
      if (!nojs.allowed) {
        return failure(429, RATE_LIMIT_MESSAGE, {
          reply: submission.reply({ formErrors: [RATE_LIMIT_MESSAGE], hideFields: hidden }),
          headers: { "Retry-After": String(nojs.retryAfterSeconds) },
        });
      }
    }

    const ctx: SubmissionContext = { request, clientIp, page, uploads: parsed.uploads, api };
    const value = submission.value as z.output<S>;
    const store = () =>
      db.transaction(async (tx) => {
        const result = await def.handle(tx, value, ctx);
        // Unique: a second commit of the same form render fails here and rolls back whole.
        if (submissionKey) {
          await tx.insert(submissionKeys).values({ key: submissionKey, form: def.id, ...submissionOf(result) });
        }
        await storeUploads(tx, parsed.uploads, result.submission);
        await enqueueSubmissionMail(tx, {
          ...result,
          noun: def.noun,
          photos: ctx.uploads.length,
          page: ctx.page,
          clientIp: ctx.clientIp,
        });
        return result;
      });
    let handled: Handled;
    try {
      try {
        handled = await store();
      } catch (error) {
        // A pooled connection broken by a database restart: try once more. Safe
        // only with a submission key (were the first commit done after all, the
        // key's unique row makes the second one roll back).
        if (!submissionKey || !isDatabaseUnavailable(causeOf(error))) throw error;
        log.warn({ form: def.id, err: { code: (causeOf(error) as { code?: string }).code } }, "database connection lost; retrying once");
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        handled = await store();
      }
    } catch (error) {
      if (error instanceof FormFailure) {
        return failure(error.status, error.message, {
          fieldErrors: error.fieldErrors,
          reply: submission.reply({ fieldErrors: error.fieldErrors, formErrors: [error.message], hideFields: hidden }),
        });
      }
      if (submissionKey && isUniqueViolation(causeOf(error), "submission_keys_pkey")) {
        const earlier = await storedSubmission(db, submissionKey);
        if (earlier) return stored(earlier.submissionId);
      }
      throw error;
    }
    wakeMailWorker();
    log.info(
      { form: def.id, table: handled.submission.table, id: handled.submission.id, uploads: parsed.uploads.length, ip: clientIp },
      "form submission stored",
    );
    return stored(handled.submission.id, handled);
  } catch (error) {
    // Log what failed, never the submitted values (a query error's text carries its parameters).
    // Drizzle's own error text lists the query parameters: log the driver's cause instead,
    // and mask anything shaped like an SSN as a last line of defence.
    const cause = causeOf(error);
    if (isDatabaseUnavailable(cause)) {
      // Most likely nothing was written; if the commit did land before the
      // connection broke, the form's submission key (kept in the re-rendered
      // form) makes the visitor's retry answer as that success, not a duplicate.
      log.error({ form: def.id, err: { code: (cause as { code?: string }).code } }, "form submission failed: database unavailable");
      const fields = body?.fields ?? (await readBody(request).catch(() => null))?.fields ?? null;
      return failure(503, UNAVAILABLE_MESSAGE, { reply: valuesOnlyReply(fields, def.schema, hidden), headers: { "Retry-After": "30" } });
    }
    const text = (cause instanceof Error ? cause.message : String(cause)).slice(0, 300).replace(/\d{3}[\s-]?\d{2}[\s-]?\d{4}/g, "[redacted]");
    log.error(
      { form: def.id, err: { name: cause instanceof Error ? cause.name : "Error", message: text, code: (cause as { code?: string }).code } },
      "form submission failed",
    );
    return failure(500, THROWN_ERROR);
  } finally {
    // Temporary upload files: kept through the transaction and its retry, removed once answered.
    await body?.cleanup();
  }
}

const RETRY_DELAY_MS = 250;

function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause instanceof Error ? error.cause : error;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; constraint_name?: unknown } | null;
  return e?.code === "23505" && (e.constraint === constraint || e.constraint_name === constraint);
}

/** The submission key a form render carried (app/forms/ui/LeadForm.tsx), or null when absent or malformed. */
function readSubmissionKey(fields: FormData): string | null {
  const value = fields.get(SUBMISSION_KEY_FIELD);
  return typeof value === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : null;
}

function submissionOf(handled: Handled) {
  return { submissionTable: handled.submission.table, submissionId: handled.submission.id };
}

async function storedSubmission(db: Database, key: string) {
  const [row] = await db.select().from(submissionKeys).where(eq(submissionKeys.key, key)).limit(1);
  return row;
}

export const UNAVAILABLE_MESSAGE = `We could not save your request just now. Please try again in a minute, or call us at ${company.phone.display}.`;

/**
 * Errors that mean the database cannot be reached right now (as opposed to a
 * bug): lost or refused connections, a server shutting down, a closed PGlite.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (
    /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT)$/.test(
      code,
    )
  ) {
    return true; // refused, reset, unreachable, or a host name briefly missing during a restart
  }
  if (/^(08|57P0|53300)/.test(code)) return true; // connection exception; admin/crash shutdown, cannot connect now; too many clients
  return /PGlite is closed|Connection terminated|connection (closed|ended)/i.test(error.message);
}

/** Label/value rows from a schema's labels (in their order) and the parsed value. */
export function summaryRows(labels: Record<string, string>, value: Record<string, unknown>, skip: string[] = []): MailRow[] {
  const rows: MailRow[] = [];
  for (const [key, label] of Object.entries(labels)) {
    if (skip.includes(key) || !(key in value)) continue;
    const v = value[key];
    if (v === undefined || v === null || v === "") continue;
    rows.push({ label, value: Array.isArray(v) ? v.join(", ") : String(v) });
  }
  return rows;
}
