import { randomUUID } from "node:crypto";
import type { z } from "~/lib/zod";
import type { Database } from "@db/client.server";
import { getDb } from "~/lib/db.server";
import { log } from "~/lib/log.server";
import { wakeMailWorker } from "~/mail/outbox.server";
import { liveCharge } from "~/payments/payments.server";
import { endClaim, storedSubmission, SUBMISSION_KEY_CONSTRAINT } from "../submission-keys.server";
import type { ParsedBody } from "~/http/read-body.server";
import { issueCaptchaPass, type CaptchaPassed } from "../captcha/pass.server";
import { captchaRefusal, spendCaptcha, validate, type Submission } from "./check.server";
import type { FormDefinition, FormOutcome, RunOptions } from "./definition";
import { isUniqueViolation, unexpected } from "./errors.server";
import { gate } from "./gate.server";
import { paymentKey } from "~/payments/command.server";
import { claimPaidRender, earlierCharge, reserveAndCharge, type Paid } from "./paid.server";
import { hiddenFields, success, withCaptchaPass } from "./reply";
import { store, storeRefusal } from "./store.server";
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
  if (outcome.paymentRefused && run.captcha && run.claimed && !run.api)
    outcome = withCaptchaPass(outcome, issueCaptchaPass(def.id, run.claimed, run.captcha));
  // The secret fields come back empty after a refusal (DECISIONS 29): the page says so, unless no
  // card can fix the refusal (an address outside the area): a line inviting the card again would mislead.
  const secretsPosted = (def.secretFields ?? []).some((name) => String(run.body?.fields.get(name) ?? "").trim());
  if (!outcome.ok && !outcome.preview && !outcome.cardless && secretsPosted && def.secretsNotice && !run.api)
    outcome = { ...outcome, notice: def.secretsNotice };
  // So do the photos (issue 31): the page says to choose them again (a "Show price" answer too).
  if (!outcome.ok && run.filesChosen && def.uploads && !run.api)
    outcome = { ...outcome, photosDropped: def.uploads.field };
  return outcome;
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
  const gated = { api, clientIp, overrides: options.overrides, onFileChosen: () => (run.filesChosen = true) };
  const { body, submissionKey: key } = await gate(def, request, db, gated, (b) => (run.body = b));
  const linkGuarded = def.guard === "link";
  const submission = validate(def, body.fields, body.uploadErrors, api, linkGuarded ? { captchaMissing: false } : {});

  // A paid render is answered by one post at a time: a twin waits here for the first one's answer.
  if (def.payment && key) await claim(run, key, body.fields);
  const earlier = key ? await alreadyStored(run, submission, key) : undefined;
  if (earlier) return earlier;

  if (!linkGuarded) await passCaptcha(run, submission, key);
  // Without a submission key (an API client) a post is charged once per request.
  const paid = def.payment
    ? await reserveAndCharge(def, db, submission.value, submission, {
        key: key ?? randomUUID(),
        request,
        clientIp,
        gateway: options.gateway,
        now: options.now,
      })
    : undefined;
  let handled;
  try {
    handled = await store(def, db, submission.value, contextOf(run, body, paid), key);
  } catch (error) {
    // A twin's commit is this post's success (what this post held goes back, or it would stand
    // unused until it expires); otherwise the refusal, any money taken settled.
    const twin =
      key &&
      (paid || isUniqueViolation(error, SUBMISSION_KEY_CONSTRAINT)) &&
      (await alreadyStored(run, submission, key));
    if (twin && paid) await def.payment?.release?.(db, paid.paymentKey).catch(() => {});
    return twin || storeRefusal(def, db, submission, paid, error);
  }
  wakeMailWorker();
  const { table, id } = handled.submission;
  log.info({ form: def.id, table, id, uploads: body.uploads.length, ip: clientIp }, "form submission stored");
  return withApiFields(run, success(def, submission, hiddenFields(def), { id, ...handled }));
}

/** Makes this post the one answering its paid render (its claim ends with the answer), unless a twin stored it meanwhile. */
async function claim(run: Run, key: string, fields: FormData): Promise<void> {
  const renewal = await claimPaidRender(run.def, run.db!, key, fields);
  if (!renewal) return; // the twin's answer is stored: the check after this finds it
  run.claimed = key;
  run.renewal = renewal;
}

/**
 * Spends the post's captcha. One spent already is refused, except for a paid render whose charge
 * went through but was never stored: its re-send completes or settles that charge.
 */
async function passCaptcha(run: Run, submission: Submission, key: string | null): Promise<void> {
  const { def, api } = run;
  const captcha = await spendCaptcha(def, run.db!, run.body!.fields, submission, run.options.clientIp ?? null, key);
  if (captcha) run.captcha = captcha;
  else if (!(def.payment && key && (await earlierCharge(def, run.db!, key))))
    stop(captchaRefusal(def, submission, api));
}

/** What the form's handler is told of the post: where it came from, its photos and its charge. */
function contextOf(run: Run, body: ParsedBody, paid: Paid<unknown> | undefined) {
  const { request, options, api } = run;
  return {
    request,
    clientIp: options.clientIp ?? null,
    page: (options.url ?? new URL(request.url)).pathname.replace(/\.data$/, "") || "/",
    uploads: body.uploads,
    api,
    payment: paid?.payment,
    paymentKey: paid?.paymentKey,
    hold: paid?.hold,
    now: options.now ?? new Date(),
  };
}

/**
 * THE "already stored?" check: a refresh, a retry or a twin of a stored render answers as its
 * success (a paid one's receipt), with nothing spent, charged or stored again. Undefined when the
 * render is not stored (or the database cannot say).
 */
async function alreadyStored(run: Run, submission: Submission, key: string): Promise<FormOutcome | undefined> {
  const stored = await storedSubmission(run.db!, key).catch(() => undefined);
  return stored && resubmitted(run, submission, key, stored.submissionId);
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
