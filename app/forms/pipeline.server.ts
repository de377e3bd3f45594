import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, inArray, notInArray } from "drizzle-orm";
import type { z } from "zod";
import type { Database, Tx } from "@db/client.server";
import { payments, submissionKeys, type PaymentPurpose } from "@db/schema";
import { getDb } from "~/lib/db.server";
import { company } from "~/content/company";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { wakeMailWorker } from "~/mail/outbox.server";
import type { MailRow } from "~/mail/render.server";
import { enqueueSubmissionMail, type CalendarInvite, type MailReceipt } from "~/mail/submission-mail.server";
import type { CardInput, ChargeRequest } from "~/payments/gateway";
import { chargeOnce, voidPayment, type PaymentOutcome } from "~/payments/payments.server";
import { hasCaptchaResponse, verifyCaptcha } from "./captcha/verifier.server";
import { CAPTCHA_FIELDS, CAPTCHA_MESSAGE } from "./captcha/types";
import { rateLimitSubject } from "~/http/client-ip.server";
import { HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD, isHoneypotTripped } from "./honeypot.server";
import { CROSS_ORIGIN_MESSAGE, isCrossOrigin } from "~/http/origin.server";
import { noJsRateLimit, RATE_LIMIT_MESSAGE, takeRateLimit, type RateLimitRule } from "~/http/rate-limit.server";
import { CHECK_FIELDS_MESSAGE, SUBMISSION_KEY_FIELD, THROWN_ERROR } from "./result";
import {
  BodyError,
  readBody,
  storeUploads,
  type AcceptedUpload,
  type ParsedBody,
  type UploadRule,
} from "./uploads.server";

/**
 * THE form pipeline (issue 4). Every form — HTML page or /api/store/* JSON
 * route — goes through `runForm`:
 *
 *   origin check → per-IP rate limit → body (streamed; files judged by their
 *   bytes) → honeypot → zod schema (the one Conform uses in the browser) and
 *   upload rules → captcha → (paid forms: the card charged once per
 *   submission key, outside any transaction) → ONE transaction: the form's
 *   `handle` (its row), its submission key, its uploads, its outbox e-mails
 *   → a result.
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
  /**
   * Paid forms only: the card payment, already answered by the processor
   * before the transaction began: 'approved', or 'pending' when its outcome is
   * unknown (store it as such and say so: never as paid).
   */
  payment?: PaymentOutcome;
  /** Paid forms only: the charge's idempotency key, which also names what `reserve` held. */
  paymentKey?: string;
};

/**
 * A paid form's charge (issue 16): what to charge, computed on the server from
 * the form's own validated fields (a posted `total` is never charged).
 */
export type FormPayment<V> = {
  purpose: PaymentPurpose;
  /**
   * Positive integer cents. `request` is the submission's, for a price that
   * depends on more than the fields (the cookie's cart: what `reserve` held).
   */
  amountCents(value: V, request: Request): number;
  card(value: V): CardInput;
  /** Shown to the company in the processor's dashboard. */
  description(value: V): string;
  /** Customer, billing address and invoice number passed on to the processor when known. */
  details?(value: V, clientIp: string | null): Pick<ChargeRequest, "customer" | "billing" | "invoiceNumber">;
  /** Where the visitor reads the outcome after success (redirect-after-post), by payment id. */
  receiptPath?(paymentId: number): string;
  /**
   * Before the charge: hold what is being paid for (a place in a service
   * slot) under `key`, or refuse with a FormFailure, and nothing is charged.
   * `handle` turns the hold into the purchase in its transaction.
   */
  reserve?(db: Database, value: V, key: string, request: Request): Promise<FormFailure | null>;
  /** The charge was refused, or its submission could not be stored: give the hold back. */
  release?(db: Database, key: string): Promise<void>;
  /** Said when a refused charge comes without the processor's message (default PAYMENT_DECLINED_MESSAGE). */
  declinedMessage?: string;
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
  /** A paid form's visitor e-mail is a receipt: its subject, title and first sentence. */
  receipt?: MailReceipt;
  /** A booked visit: the visitor's e-mail carries its calendar invitation (.ics). */
  calendar?: CalendarInvite;
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
  /** Shown under the message of a refused post that carried secret fields: they must be typed again. */
  secretsNotice?: string;
  /** The commercial service form keeps its values after success (SPEC §4). */
  keepValuesOnSuccess?: boolean;
  rateLimit?: RateLimitRule;
  /**
   * A paid form: after the captcha and the budgets, BEFORE the transaction,
   * the card is charged once per submission key (chargeOnce); declined → 402
   * with the processor's message and nothing stored but the payment's row;
   * approved or unknown → `handle` gets it in `ctx.payment`. If the
   * transaction then fails, an approved charge is voided.
   */
  payment?: FormPayment<z.output<Schema>>;
  /**
   * The form has a "Show price" button for visitors without JavaScript: a
   * post carrying its name and value is answered with the form re-rendered,
   * every field kept but the secret ones, and nothing checked, stored or
   * charged. It counts in the form's rate limit like any post.
   */
  preview?: { field: string; value: string };
  handle(tx: Tx, value: z.output<Schema>, ctx: SubmissionContext): Promise<Handled>;
  /**
   * More of the API's answer beside `success` and `message` for a stored submission, the same
   * whether it was stored now or by an earlier post of its key (the checkout's order_id and total).
   */
  apiFields?(db: Database, submissionId: number, request: Request): Promise<Record<string, unknown> | undefined>;
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
  /** The answer to a "Show price" post (FormDefinition.preview). */
  preview?: boolean;
  /** A second line under a refusal's message (FormDefinition.secretsNotice). */
  notice?: string;
  /** FormDefinition.apiFields of a stored submission (API answers only). */
  apiFields?: Record<string, unknown>;
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
function valuesOnlyReply(
  fields: FormData | null,
  schema: z.ZodType,
  hidden: string[],
): SubmissionResult<string[]> | null {
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
  const posted = { secrets: false };
  const outcome = await runSteps(def, request, options, posted);
  // The secret fields come back empty after a refusal (DECISIONS 29): the page says so.
  return !outcome.ok && !outcome.preview && posted.secrets && def.secretsNotice && !options.api
    ? { ...outcome, notice: def.secretsNotice }
    : outcome;
}

async function runSteps<S extends z.ZodType>(
  def: FormDefinition<S>,
  request: Request,
  options: RunOptions,
  posted: { secrets: boolean },
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
    posted.secrets = (def.secretFields ?? []).some((name) => String(parsed.fields.get(name) ?? "").trim() !== "");
    if (def.preview && !api && parsed.fields.get(def.preview.field) === def.preview.value) {
      return {
        ok: false,
        status: 200,
        message: "",
        fieldErrors: {},
        reply: valuesOnlyReply(parsed.fields, def.schema, hidden),
        preview: true,
      };
    }

    // A filled, missing (HTML posts) or too-quickly posted honeypot: store nothing, answer like a success.
    if (isHoneypotTripped(parsed.fields, { required: !api, minFillMs: env().FORM_MIN_FILL_MS })) {
      log.info({ form: def.id, ip: clientIp }, "honeypot tripped; submission dropped");
      // A paid form never says "paid" or "booked" for what it did not take: a person whose
      // autofill filled the trap, or who sent it within the minimum fill time, sends it again.
      if (def.payment) return failure(400, THROWN_ERROR, { reply: valuesOnlyReply(parsed.fields, def.schema, hidden) });
      return { ok: true, status: 200, message: def.successMessage, fieldErrors: {}, reply: { initialValue: null } };
    }

    const submissionKey = readSubmissionKey(parsed.fields);
    const submission = parseWithZod(parsed.fields, { schema: def.schema });
    // The answer to a submission that was stored: its success, whether now or on a resubmission.
    const stored = (id?: number, handled?: Handled, redirectTo?: string): FormOutcome => ({
      ok: true,
      status: 200,
      message: handled?.message ?? def.successMessage,
      fieldErrors: {},
      reply: def.keepValuesOnSuccess
        ? submission.reply({ hideFields: [...hidden, SUBMISSION_KEY_FIELD] })
        : submission.reply({ resetForm: true }),
      redirectTo: handled?.redirectTo ?? redirectTo,
      submissionId: id,
    });
    const answered = async (outcome: FormOutcome): Promise<FormOutcome> =>
      api && def.apiFields && outcome.submissionId !== undefined
        ? { ...outcome, apiFields: await def.apiFields(db, outcome.submissionId, request) }
        : outcome;
    // A resubmission of a stored paid form goes to the receipt of the payment its key made.
    const resubmitted = async (id: number): Promise<FormOutcome> =>
      answered(
        stored(
          id,
          undefined,
          submissionKey && def.payment?.receiptPath
            ? await receiptOf(db, paymentKey(def.id, submissionKey), def.payment.receiptPath)
            : undefined,
        ),
      );
    const fieldErrors: Record<string, string[]> = { ...parsed.uploadErrors };
    if (submission.status !== "success") {
      for (const [name, messages] of Object.entries(submission.error ?? {})) {
        if (messages?.length) fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
      }
    }
    const captchaMissing = !hasCaptchaResponse(parsed.fields);
    if (Object.keys(fieldErrors).length > 0) {
      // Without JavaScript both can be wrong at once: the page says both (the API lists the fields in `errors`).
      const message = !captchaMissing
        ? CHECK_FIELDS_MESSAGE
        : api
          ? CAPTCHA_MESSAGE
          : `${CHECK_FIELDS_MESSAGE} ${CAPTCHA_MESSAGE}`;
      return failure(400, message, {
        fieldErrors,
        reply: submission.reply({ fieldErrors: parsed.uploadErrors, hideFields: hidden }),
      });
    }
    // A Conform "intent" (client-side validation request) is not a submission.
    if (submission.status !== "success")
      return failure(400, CHECK_FIELDS_MESSAGE, { reply: submission.reply({ hideFields: hidden }) });

    const captcha = captchaMissing ? false : await verifyCaptcha(db, parsed.fields, clientIp);
    // A resubmission of a form already stored (a refresh, a retry after an
    // uncertain answer) carries a spent captcha: answer it as the success it was.
    if (!captcha && submissionKey) {
      const earlier =
        (await storedSubmission(db, submissionKey)) ??
        (def.payment ? await paidTwin(db, submissionKey, paymentKey(def.id, submissionKey)) : undefined);
      if (earlier) return resubmitted(earlier.submissionId);
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

    const value = submission.value as z.output<S>;
    let payment: PaymentOutcome | undefined;
    let paymentKeyUsed: string | undefined;
    if (def.payment) {
      // A render already stored (its POST sent again with a fresh captcha): its receipt, nothing charged.
      if (submissionKey) {
        const earlier = await storedSubmission(db, submissionKey);
        if (earlier) return resubmitted(earlier.submissionId);
      }
      const charge = def.payment;
      // The submission key is the idempotency key; a post without one (an API client) charges once per request.
      paymentKeyUsed = paymentKey(def.id, submissionKey ?? randomUUID());
      const refused = await charge.reserve?.(db, value, paymentKeyUsed, request);
      if (refused) {
        // A twin of this post (same key) stored meanwhile took what was held (a checkout's cart): its success.
        const earlier = submissionKey ? await storedSubmission(db, submissionKey) : undefined;
        if (earlier) return resubmitted(earlier.submissionId);
        return failure(refused.status, refused.message, {
          fieldErrors: refused.fieldErrors,
          reply: submission.reply({
            fieldErrors: refused.fieldErrors,
            formErrors: [refused.message],
            hideFields: hidden,
          }),
        });
      }
      payment = await chargeOnce(db, {
        purpose: charge.purpose,
        amountCents: charge.amountCents(value, request),
        card: charge.card(value),
        description: charge.description(value),
        idempotencyKey: paymentKeyUsed,
        ...charge.details?.(value, clientIp),
      });
      if (payment.status !== "approved" && payment.status !== "pending") {
        // Declined or refused: nothing is stored but the attempt's payments row (or, for a
        // render whose charge was voided after a failed store, nothing new at all).
        await charge.release?.(db, paymentKeyUsed);
        const message =
          payment.status === "voided" || payment.status === "refunded"
            ? PAYMENT_CANCELLED_MESSAGE
            : (payment.message ?? charge.declinedMessage ?? PAYMENT_DECLINED_MESSAGE);
        return failure(402, message, {
          reply: submission.reply({ formErrors: [message], hideFields: hidden }),
        });
      }
    }

    // This post's twin (same key) committed first: what this post held after that commit (a
    // place, stock) is given back, or it would stand unused until it expires; then its success.
    const twinStored = async (id: number): Promise<FormOutcome> => {
      if (paymentKeyUsed) await def.payment?.release?.(db, paymentKeyUsed).catch(() => {});
      return resubmitted(id);
    };
    const ctx: SubmissionContext = {
      request,
      clientIp,
      page,
      uploads: parsed.uploads,
      api,
      payment,
      paymentKey: paymentKeyUsed,
    };
    const store = () =>
      db.transaction(async (tx) => {
        const result = await def.handle(tx, value, ctx);
        // The submission key and the e-mails need only the row's id: sent together, one round trip.
        await Promise.all([
          // Unique: a second commit of the same form render fails here and rolls back whole.
          submissionKey &&
            tx.insert(submissionKeys).values({ key: submissionKey, form: def.id, ...submissionOf(result) }),
          enqueueSubmissionMail(tx, {
            ...result,
            noun: def.noun,
            photos: ctx.uploads.length,
            page: ctx.page,
            clientIp: ctx.clientIp,
          }),
        ]);
        await storeUploads(tx, parsed.uploads, result.submission);
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
        log.warn(
          { form: def.id, err: { code: (causeOf(error) as { code?: string }).code } },
          "database connection lost; retrying once",
        );
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        handled = await store();
      }
    } catch (error) {
      if (payment?.status === "approved") {
        // Stored by a concurrent twin of this post (same key): that submission holds the payment.
        const earlier = submissionKey ? await storedSubmission(db, submissionKey).catch(() => undefined) : undefined;
        if (earlier) return twinStored(earlier.submissionId);
        // Money taken for something not stored: give it back (same day, nothing settles), and its hold.
        // Unless the charge was a twin's (same key, still in flight): that post stores or voids it.
        if (!payment.repeated) {
          await voidQuietly(db, def.id, payment.paymentId);
          if (paymentKeyUsed) await def.payment?.release?.(db, paymentKeyUsed).catch(() => {});
        }
      }
      if (error instanceof FormFailure) {
        return failure(error.status, error.message, {
          fieldErrors: error.fieldErrors,
          reply: submission.reply({ fieldErrors: error.fieldErrors, formErrors: [error.message], hideFields: hidden }),
        });
      }
      if (submissionKey && isUniqueViolation(causeOf(error), "submission_keys_pkey")) {
        const earlier = await storedSubmission(db, submissionKey);
        if (earlier) return twinStored(earlier.submissionId);
      }
      throw error;
    }
    wakeMailWorker();
    log.info(
      {
        form: def.id,
        table: handled.submission.table,
        id: handled.submission.id,
        uploads: parsed.uploads.length,
        ip: clientIp,
      },
      "form submission stored",
    );
    return await answered(stored(handled.submission.id, handled));
  } catch (error) {
    // Log what failed, never the submitted values (a query error's text carries its parameters).
    // Drizzle's own error text lists the query parameters: log the driver's cause instead,
    // and mask anything shaped like an SSN as a last line of defence.
    const cause = causeOf(error);
    if (isDatabaseUnavailable(cause)) {
      // Most likely nothing was written; if the commit did land before the
      // connection broke, the form's submission key (kept in the re-rendered
      // form) makes the visitor's retry answer as that success, not a duplicate.
      log.error(
        { form: def.id, err: { code: (cause as { code?: string }).code } },
        "form submission failed: database unavailable",
      );
      const fields = body?.fields ?? (await readBody(request).catch(() => null))?.fields ?? null;
      return failure(503, UNAVAILABLE_MESSAGE, {
        reply: valuesOnlyReply(fields, def.schema, hidden),
        headers: { "Retry-After": "30" },
      });
    }
    const text = (cause instanceof Error ? cause.message : String(cause))
      .slice(0, 300)
      .replace(/\d{3}[\s-]?\d{2}[\s-]?\d{4}/g, "[redacted]");
    log.error(
      {
        form: def.id,
        err: {
          name: cause instanceof Error ? cause.name : "Error",
          message: text,
          code: (cause as { code?: string }).code,
        },
      },
      "form submission failed",
    );
    return failure(500, THROWN_ERROR);
  } finally {
    // Temporary upload files: kept through the transaction and its retry, removed once answered.
    await body?.cleanup();
  }
}

const RETRY_DELAY_MS = 250;

export const PAYMENT_DECLINED_MESSAGE = "Your card was declined.";
/** A render whose charge was voided after its store failed: the key is spent, the page must be loaded again. */
export const PAYMENT_CANCELLED_MESSAGE =
  "Your payment was cancelled and nothing was charged. Please reload the page and send the form again.";

/** Voids an approved charge whose submission could not be stored; a failure is logged for the reconciliation. */
async function voidQuietly(db: Database, form: string, paymentId: number): Promise<void> {
  try {
    const result = await voidPayment(db, paymentId);
    if (result.status !== "voided")
      log.error(
        { form, paymentId, status: result.status },
        "charge for an unstored submission NOT voided: reconcile by hand",
      );
    else log.warn({ form, paymentId }, "charge voided: its submission could not be stored");
  } catch (error) {
    log.error(
      { form, paymentId, err: { name: (error as Error)?.name } },
      "charge for an unstored submission NOT voided: reconcile by hand",
    );
  }
}

/** A paid form's idempotency key: the form's id and its render's submission key. */
const paymentKey = (form: string, key: string) => `${form}:${key}`;

/** The receipt of the live payment a submission key made, if any. */
async function receiptOf(
  db: Database,
  idempotencyKey: string,
  path: (paymentId: number) => string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(notInArray(payments.status, ["declined", "failed"]), eq(payments.idempotencyKey, idempotencyKey)))
    .limit(1);
  return row ? path(row.id) : undefined;
}

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

/** How long a twin may take from spending the captcha to claiming its charge (a few queries). */
const TWIN_CLAIM_MS = 300;
const TWIN_POLL_MS = 200;

/**
 * A paid form's render sent twice at once (a double click without JavaScript: the browser shows
 * the second answer) finds its captcha spent by the first post, which may still be charging the
 * card. While that post's charge is live (pending at the processor, or approved and being
 * stored), wait for its submission, so the visitor who has just paid sees the success and not a
 * captcha error. Nothing live, or no submission within the processor's timeout: undefined.
 */
async function paidTwin(db: Database, key: string, idempotencyKey: string) {
  const deadline = Date.now() + env().PAYMENT_TIMEOUT_MS + 5_000;
  await sleep(TWIN_CLAIM_MS);
  for (;;) {
    const stored = await storedSubmission(db, key);
    if (stored) return stored;
    const [live] = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.idempotencyKey, idempotencyKey), inArray(payments.status, ["pending", "approved"])))
      .limit(1);
    if (!live || Date.now() > deadline) return undefined;
    await sleep(TWIN_POLL_MS);
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
export function summaryRows(
  labels: Record<string, string>,
  value: Record<string, unknown>,
  skip: string[] = [],
): MailRow[] {
  const rows: MailRow[] = [];
  for (const [key, label] of Object.entries(labels)) {
    if (skip.includes(key) || !(key in value)) continue;
    const v = value[key];
    if (v === undefined || v === null || v === "") continue;
    rows.push({ label, value: Array.isArray(v) ? v.join(", ") : String(v) });
  }
  return rows;
}
