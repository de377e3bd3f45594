import { randomUUID } from "node:crypto";
import type { z } from "~/lib/zod";
import type { Database } from "@db/client.server";
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { wakeMailWorker } from "~/mail/outbox.server";
import { liveCharge, PaymentSettledError } from "~/payments/payments.server";
import { endClaim, storedSubmission, SUBMISSION_KEY_CONSTRAINT } from "../submission-keys.server";
import type { ParsedBody } from "../uploads.server";
import { issueCaptchaPass, type CaptchaPassed } from "../captcha/pass.server";
import { CAPTCHA_PASS_FIELD } from "../captcha/types";
import { captchaRefusal, spendCaptcha, validate, type Submission } from "./check.server";
import { FormFailure, type FormDefinition, type FormOutcome, type RunOptions } from "./definition";
import { errorCode, isDatabaseUnavailable, isUniqueViolation, logUnexpected, unexpected } from "./errors.server";
import { gate } from "./gate.server";
import { claimPaidRender, earlierCharge, paymentKey, reserveAndCharge, settleUnstored, type Paid } from "./paid.server";
import { fromFormFailure, hiddenFields, PAYMENT_CANCELLED_MESSAGE, refusal, success } from "./reply";
import { store } from "./store.server";
import { Stop, stop } from "./stop";

/**
 * THE form pipeline. Every form — HTML page or /api/store/* JSON route — is run here, as
 * these steps in this order:
 *
 *   gate      method, origin, per-IP limit; the body, with honeypot, fill time and the
 *             captcha's cheap check before any file byte is written; "Show price"
 *   validate  the fields, by the schema the browser uses too, and the upload rules
 *   claim     paid renders: one post of a render answered at a time (a twin waits for it)
 *   captcha   spent once; a resubmission of a stored render answers as its success; a paid
 *             render whose charge was refused passes it on to its next post (one pass each)
 *   pay       paid forms: hold → charge once per submission key → release on refusal
 *   store     one transaction: the record, the key, the uploads, the e-mails
 *   reply     success (or its receipt), or the refusal with the values kept
 */
export async function runForm<S extends z.ZodType>(
  def: FormDefinition<S>,
  request: Request,
  options: RunOptions = {},
): Promise<FormOutcome> {
  const run: Run = { def: def as FormDefinition, request, options, api: options.api ?? false };
  let outcome: FormOutcome;
  try {
    outcome = await steps(run);
  } catch (error) {
    outcome = error instanceof Stop ? error.outcome : await unexpected(run.def, run.request, run.body, error);
  } finally {
    run.renewal?.();
    // Temporary upload files: kept through the transaction and its retry, removed once answered.
    await run.body?.cleanup();
  }
  if (run.claimed) {
    const refused = outcome.ok ? undefined : { status: outcome.status, message: outcome.message };
    await endClaim(run.db!, run.claimed, refused).catch(() => {}); // if not, it goes stale in seconds
  }
  // A refused charge took nothing: the render's next post (another card) keeps its captcha passed.
  if (outcome.paymentRefused && run.captcha && run.claimed && !run.api) outcome = withCaptchaPass(run, outcome);
  // The secret fields come back empty after a refusal (DECISIONS 29): the page says so.
  const secretsPosted = (def.secretFields ?? []).some((name) => String(run.body?.fields.get(name) ?? "").trim());
  if (!outcome.ok && !outcome.preview && secretsPosted && def.secretsNotice && !run.api)
    outcome = { ...outcome, notice: def.secretsNotice };
  // So do the photos (issue 31): the page says to choose them again (a "Show price" answer too).
  if (!outcome.ok && run.filesChosen && def.uploads && !run.api)
    outcome = { ...outcome, photosDropped: def.uploads.field };
  return outcome;
}

/**
 * The refusal's kept values carry the render's captcha pass (../captcha/pass.server.ts), which
 * the form posts back with the next card: the page's own hidden field, with and without
 * JavaScript. None once the render has used its passes up: the captcha is solved again.
 */
function withCaptchaPass(run: Run, outcome: FormOutcome): FormOutcome {
  const pass = issueCaptchaPass(run.def.id, run.claimed!, run.captcha!);
  if (!pass || !outcome.reply) return outcome;
  return {
    ...outcome,
    reply: { ...outcome.reply, initialValue: { ...outcome.reply.initialValue, [CAPTCHA_PASS_FIELD]: pass } },
  };
}

type Run = {
  def: FormDefinition;
  request: Request;
  options: RunOptions;
  api: boolean;
  db?: Database;
  body?: ParsedBody;
  /** The submission key of a paid render this post answers (its claim ends with the answer). */
  claimed?: string;
  /** How this post passed its captcha (a refused charge passes it on to the render's next post). */
  captcha?: CaptchaPassed;
  renewal?: () => void;
  /** The post carried photos the visitor chose: a refused page cannot keep them (a file input starts empty). */
  filesChosen?: boolean;
};

async function steps(run: Run): Promise<FormOutcome> {
  const { def, request, options, api } = run;
  const clientIp = options.clientIp ?? null;
  const db = (run.db = options.db ?? (await getDb()));

  const { body, submissionKey: key } = await gate(
    def,
    request,
    db,
    { api, clientIp, overrides: options.overrides, onFileChosen: () => (run.filesChosen = true) },
    (b) => (run.body = b),
  );
  const linkGuarded = def.guard === "link";
  const submission = validate(def, body.fields, body.uploadErrors, api, linkGuarded ? { captchaMissing: false } : {});

  if (def.payment && key) {
    const claim = await claimPaidRender(def, db, key, body.fields);
    if (typeof claim !== "function") return resubmitted(run, submission, key, claim.submissionId);
    run.claimed = key;
    run.renewal = claim;
  }

  const captcha = linkGuarded ? null : await spendCaptcha(def, db, body.fields, submission, clientIp, key);
  if (captcha) run.captcha = captcha;
  else if (!linkGuarded) {
    // A captcha spent already: a refresh or retry of a stored render answers as its success;
    // a paid render whose charge went through but was never stored is completed or settled.
    const earlier = key ? await storedSubmission(db, key) : undefined;
    if (earlier) return resubmitted(run, submission, key!, earlier.submissionId);
    if (!(def.payment && key && (await earlierCharge(def, db, key)))) stop(captchaRefusal(def, submission, api));
  }

  let paid: Paid<unknown> | undefined;
  if (def.payment) {
    // A render already stored (its POST sent again with a fresh captcha): its receipt, nothing charged.
    const earlier = key ? await storedSubmission(db, key) : undefined;
    if (earlier) return resubmitted(run, submission, key!, earlier.submissionId);
    // Without a submission key (an API client) a post is charged once per request.
    paid = await reserveAndCharge(def, db, submission.value, submission, {
      key: key ?? randomUUID(),
      request,
      clientIp,
      gateway: options.gateway,
      now: options.now,
    });
  }

  const ctx = {
    request,
    clientIp,
    page: (options.url ?? new URL(request.url)).pathname.replace(/\.data$/, "") || "/",
    uploads: body.uploads,
    api,
    payment: paid?.payment,
    paymentKey: paid?.paymentKey,
    hold: paid?.hold,
    now: options.now ?? new Date(),
  };
  let handled;
  try {
    handled = await store(def, db, submission.value, ctx, key);
  } catch (error) {
    return storeFailed(run, submission, key, paid, error);
  }
  wakeMailWorker();
  log.info(
    {
      form: def.id,
      table: handled.submission.table,
      id: handled.submission.id,
      uploads: body.uploads.length,
      ip: clientIp,
    },
    "form submission stored",
  );
  return withApiFields(run, success(def, submission, hiddenFields(def), { id: handled.submission.id, ...handled }));
}

/** The store refused or failed: a twin's commit is this post's success; money taken is settled. */
async function storeFailed(
  run: Run,
  submission: Submission,
  key: string | null,
  paid: Paid<unknown> | undefined,
  error: unknown,
): Promise<FormOutcome> {
  const { def } = run;
  const db = run.db!;
  const hidden = hiddenFields(def);
  const twin = key ? await storedSubmission(db, key).catch(() => undefined) : undefined;
  if (twin && (paid || isUniqueViolation(error, SUBMISSION_KEY_CONSTRAINT))) {
    // What this post held after the twin's commit (a place, stock) goes back, or it would stand unused until it expires.
    if (paid) await def.payment?.release?.(db, paid.paymentKey).catch(() => {});
    return resubmitted(run, submission, key!, twin.submissionId);
  }
  const said = paid ? await settleUnstored(def, db, paid) : "";
  if (error instanceof PaymentSettledError) return refusal(submission, hidden, 402, PAYMENT_CANCELLED_MESSAGE);
  if (error instanceof FormFailure) return fromFormFailure(submission, hidden, error);
  if (!said) throw error;
  const unavailable = isDatabaseUnavailable(error instanceof Error && error.cause ? error.cause : error);
  if (unavailable)
    log.error({ form: def.id, err: { code: errorCode(error) } }, "form submission failed: database unavailable");
  else logUnexpected(def.id, error);
  return refusal(
    submission,
    hidden,
    unavailable ? 503 : 500,
    said,
    {},
    unavailable ? { headers: { "Retry-After": "30" } } : {},
  );
}

/** A resubmission of a stored render: its success, and a paid form's receipt. */
async function resubmitted(run: Run, submission: Submission, key: string, id: number): Promise<FormOutcome> {
  const { def } = run;
  const charge = def.payment?.receiptPath ? await liveCharge(run.db!, paymentKey(def.id, key)) : undefined;
  const redirectTo = charge
    ? def.payment!.receiptPath!(charge.paymentId)
    : def.payment?.answerPath
      ? def.payment.answerPath(run.request)
      : undefined;
  return withApiFields(run, success(def, submission, hiddenFields(def), { id, redirectTo }));
}

async function withApiFields(run: Run, outcome: FormOutcome): Promise<FormOutcome> {
  return run.api && run.def.apiFields && outcome.submissionId !== undefined
    ? { ...outcome, apiFields: await run.def.apiFields(run.db!, outcome.submissionId, run.request) }
    : outcome;
}
