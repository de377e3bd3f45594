import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { Database, Tx } from "@db/client.server";
import { getDb } from "~/lib/db.server";
import { company } from "~/content/company";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { perRender } from "~/lib/page-cache.server";
import { assertSecretsConfigured } from "~/lib/secrets.server";
import { onDatabaseReady } from "~/lib/startup.server";
import { enqueueMail, wakeMailWorker, type OutgoingMail } from "~/mail/outbox.server";
import { renderSubmissionMail, type MailRow } from "~/mail/render.server";
import "~/mail/worker.server";
import { captchaBootstrap, hasCaptchaResponse, verifyCaptcha } from "./captcha/verifier.server";
import { CAPTCHA_FIELDS, CAPTCHA_MESSAGE, type CaptchaBootstrap } from "./captcha/types";
import { clientIpOf, rateLimitSubject } from "./client-ip.server";
import {
  HONEYPOT_NAME_FIELD,
  HONEYPOT_VALID_FROM_FIELD,
  honeypotInputProps,
  isHoneypotTripped,
  type HoneypotInputProps,
} from "./honeypot.server";
import { CROSS_ORIGIN_MESSAGE, isCrossOrigin } from "./origin.server";
import { RATE_LIMIT_MESSAGE, takeRateLimit, type RateLimitRule } from "./rate-limit.server";
import { CHECK_FIELDS_MESSAGE, THROWN_ERROR, type FormActionData } from "./result";
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
 * A form is a definition: schema + `handle` (its table) + a view. Nothing else
 * is copied. `handle` may throw `FormFailure` to roll everything back with a
 * message (e.g. a declined card), and may ask for a redirect after success.
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

/** What a route hands over: its action arguments. */
export type ActionArgs = { request: Request; url?: URL; context?: Readonly<RouterContextProvider> };

/** Never echoed back into a form (captcha, honeypot, secrets that must be typed again). */
const HIDDEN_FIELDS = [...CAPTCHA_FIELDS, HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD];

function failure(status: number, message: string, extra: Partial<FormOutcome> = {}): FormOutcome {
  return { ok: false, status, message, fieldErrors: {}, reply: null, ...extra };
}

/** A Conform result that keeps the given values (no-JS re-render) without validating them. */
function valuesOnlyReply(fields: FormData | null, schema: z.ZodType): SubmissionResult<string[]> | null {
  if (!fields) return null;
  const submission = parseWithZod(fields, { schema });
  const result = submission.reply({ hideFields: HIDDEN_FIELDS });
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
        reply: valuesOnlyReply(body?.fields ?? null, def.schema),
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

    // A filled honeypot: store nothing, answer like a success.
    if (isHoneypotTripped(parsed.fields)) {
      log.info({ form: def.id, ip: clientIp }, "honeypot tripped; submission dropped");
      return { ok: true, status: 200, message: def.successMessage, fieldErrors: {}, reply: { initialValue: null } };
    }

    const submission = parseWithZod(parsed.fields, { schema: def.schema });
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
        reply: submission.reply({ fieldErrors: parsed.uploadErrors, hideFields: HIDDEN_FIELDS }),
      });
    }
    // A Conform "intent" (client-side validation request) is not a submission.
    if (submission.status !== "success") return failure(400, CHECK_FIELDS_MESSAGE, { reply: submission.reply({ hideFields: HIDDEN_FIELDS }) });

    if (captchaMissing || !(await verifyCaptcha(db, parsed.fields, clientIp))) {
      return failure(400, CAPTCHA_MESSAGE, {
        reply: submission.reply({ formErrors: [CAPTCHA_MESSAGE], hideFields: HIDDEN_FIELDS }),
      });
    }

    const ctx: SubmissionContext = { request, clientIp, page, uploads: parsed.uploads, api };
    const value = submission.value as z.output<S>;
    let handled: Handled;
    try {
      handled = await db.transaction(async (tx) => {
        const result = await def.handle(tx, value, ctx);
        await storeUploads(tx, parsed.uploads, result.submission);
        await enqueueSubmissionMail(tx, def, result, ctx);
        return result;
      });
    } catch (error) {
      if (error instanceof FormFailure) {
        return failure(error.status, error.message, {
          fieldErrors: error.fieldErrors,
          reply: submission.reply({ fieldErrors: error.fieldErrors, formErrors: [error.message], hideFields: HIDDEN_FIELDS }),
        });
      }
      throw error;
    }
    wakeMailWorker();
    log.info(
      { form: def.id, table: handled.submission.table, id: handled.submission.id, uploads: parsed.uploads.length, ip: clientIp },
      "form submission stored",
    );
    return {
      ok: true,
      status: 200,
      message: handled.message ?? def.successMessage,
      fieldErrors: {},
      reply: def.keepValuesOnSuccess ? submission.reply({ hideFields: HIDDEN_FIELDS }) : submission.reply({ resetForm: true }),
      redirectTo: handled.redirectTo,
      submissionId: handled.submission.id,
    };
  } catch (error) {
    // Log what failed, never the submitted values (a query error's text carries its parameters).
    // Drizzle's own error text lists the query parameters: log the driver's cause instead,
    // and mask anything shaped like an SSN as a last line of defence.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    if (isDatabaseUnavailable(cause)) {
      // Nothing was written (the transaction never committed): say so clearly,
      // keep what the visitor typed, and let them retry.
      log.error({ form: def.id, err: { code: (cause as { code?: string }).code } }, "form submission failed: database unavailable");
      const fields = body?.fields ?? (await readBody(request).catch(() => null))?.fields ?? null;
      return failure(503, UNAVAILABLE_MESSAGE, { reply: valuesOnlyReply(fields, def.schema), headers: { "Retry-After": "30" } });
    }
    const text = (cause instanceof Error ? cause.message : String(cause)).slice(0, 300).replace(/\d{3}[\s-]?\d{2}[\s-]?\d{4}/g, "[redacted]");
    log.error(
      { form: def.id, err: { name: cause instanceof Error ? cause.name : "Error", message: text, code: (cause as { code?: string }).code } },
      "form submission failed",
    );
    return failure(500, THROWN_ERROR);
  }
}

export const UNAVAILABLE_MESSAGE = `We could not save your request just now. Please try again in a minute, or call us at ${company.phone.display}.`;

/**
 * Errors that mean the database cannot be reached right now (as opposed to a
 * bug): lost or refused connections, a server shutting down, a closed PGlite.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = String((error as { code?: unknown }).code ?? "");
  if (/^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT)$/.test(code)) return true;
  if (/^(08|57P0)/.test(code)) return true; // connection exception; admin/crash shutdown, cannot connect now
  return /PGlite is closed|Connection terminated|connection (closed|ended)/i.test(error.message);
}

/** The company copy and the visitor's confirmation, in the submission's transaction. */
async function enqueueSubmissionMail(tx: Tx, def: FormDefinition, handled: Handled, ctx: SubmissionContext) {
  const e = env();
  const { id } = handled.submission;
  const photos = ctx.uploads.length;
  const rows: MailRow[] = [...handled.summary];
  if (photos > 0) {
    rows.push({
      label: "Photos",
      value: `${photos} photo${photos === 1 ? "" : "s"} stored with this request (${handled.submission.table} #${id}, uploads table). They are not published on the web; open them with Drizzle Studio.`,
    });
  }
  rows.push({ label: "Sent from", value: `${ctx.page}${ctx.clientIp ? ` (IP ${ctx.clientIp})` : ""}` });

  const company = renderSubmissionMail({
    title: `New ${def.noun} #${id}`,
    intro: `${handled.name} sent a ${def.noun} through the website.${handled.email ? " Reply to this e-mail to answer them." : ""}`,
    rows,
  });
  const mails: OutgoingMail[] = [
    {
      to: e.COMPANY_INBOX,
      replyTo: handled.email,
      subject: `New ${def.noun} #${id} from ${handled.name}`,
      ...company,
      source: handled.submission,
    },
  ];

  if (handled.email) {
    const confirmation = renderSubmissionMail({
      title: "Thank you — we received your message",
      intro: `Hello ${handled.name}, thank you for contacting Dover Doors & Windows. We received your ${def.noun}.${
        handled.confirmationNote ? ` ${handled.confirmationNote}` : ""
      }`,
      rows: handled.summary,
      footer: `Dover Doors & Windows · reply to this e-mail or write to ${e.COMPANY_INBOX} if anything needs correcting.`,
    });
    mails.push({
      to: handled.email,
      replyTo: e.COMPANY_INBOX,
      subject: `We received your ${def.noun} — Dover Doors & Windows`,
      ...confirmation,
      source: handled.submission,
    });
  }
  await enqueueMail(tx, ...mails);
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

// ── Route glue ─────────────────────────────────────────────────────────

/** What every page with a form needs in its loader: the captcha and the honeypot. */
export type FormBootstrap = { captcha: CaptchaBootstrap; honeypot: HoneypotInputProps };

export function formBootstrap(): FormBootstrap {
  const bootstrap = { captcha: captchaBootstrap(), honeypot: honeypotInputProps() };
  // Made anew for every answer: a reused document gets this answer's (page-cache.server.ts).
  return perRender(bootstrap, [bootstrap.captcha.noJs.question, bootstrap.captcha.noJs.token, bootstrap.honeypot.encryptedValidFrom]);
}

/** A page's `action`: renders in place (with and without JS) or redirects after success. */
export async function formAction<S extends z.ZodType>(
  def: FormDefinition<S>,
  args: ActionArgs,
  options: Omit<RunOptions, "url" | "api"> = {},
) {
  const outcome = await runForm(def, args.request, { ...options, url: args.url, clientIp: options.clientIp ?? clientIpOf(args.context) });
  if (outcome.ok && outcome.redirectTo) throw redirect(outcome.redirectTo);
  const body: FormActionData = {
    form: def.id,
    status: outcome.ok ? "success" : "error",
    message: outcome.message,
    lastResult: outcome.reply,
  };
  return data(body, { status: outcome.status, headers: outcome.headers });
}

/** An /api/store/* route: SPEC §7's `{ success, message }` (plus field errors when there are any). */
export async function apiFormAction<S extends z.ZodType>(
  def: FormDefinition<S>,
  args: ActionArgs,
  options: Omit<RunOptions, "url" | "api"> = {},
): Promise<Response> {
  const outcome = await runForm(def, args.request, {
    ...options,
    url: args.url,
    api: true,
    clientIp: options.clientIp ?? clientIpOf(args.context),
  });
  const errors = Object.values(outcome.fieldErrors).flat();
  // An API client has no highlighted fields: name the problems in the message.
  const message = errors.length > 0 && outcome.message === CHECK_FIELDS_MESSAGE ? `Please check the form: ${errors.join(" ")}` : outcome.message;
  const body: Record<string, unknown> = { success: outcome.ok, message };
  if (errors.length > 0) body.errors = outcome.fieldErrors;
  if (outcome.redirectTo) body.redirect = outcome.redirectTo;
  return Response.json(body, { status: outcome.status, headers: { "Cache-Control": "no-store", ...outcome.headers } });
}

// Production on DATABASE_URL must have its secrets; refuse to serve without them.
onDatabaseReady(() => {
  if (process.env.VITEST) return;
  try {
    assertSecretsConfigured();
  } catch (error) {
    log.fatal({ err: error }, "refusing to start");
    process.exit(1);
  }
});
