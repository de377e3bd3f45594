import type { Database } from "@db/client.server";
import { rateLimitSubject } from "~/http/client-ip.server";
import { CROSS_ORIGIN_MESSAGE, isCrossOrigin } from "~/http/origin.server";
import { RATE_LIMIT_MESSAGE, takeRateLimit } from "~/http/rate-limit.server";
import { BodyError, readBody, type ParsedBody } from "~/http/read-body.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { captchaMayPass, hasCaptchaResponse } from "../captcha/verifier.server";
import { isHoneypotTripped } from "../honeypot.server";
import { THROWN_ERROR } from "../result";
import { readSubmissionKey, storedSubmission } from "../submission-keys.server";
import { captchaRefusal, validate } from "./check.server";
import type { FormDefinition, FormOutcome } from "./definition";
import { droppedAsSuccess, failure, hiddenFields, valuesOnlyReply } from "./reply";
import { stop } from "./stop";

/**
 * The gate: what is refused before a form is looked at — another method, another origin,
 * too many posts from this IP — then the body, read with the honeypot, the fill time and the
 * captcha's cheap check run before any file byte is written (a form's fields come before its
 * files), and the no-JS "Show price" answer.
 */
export type Gated = { body: ParsedBody; submissionKey: string | null };

export async function gate(
  def: FormDefinition,
  request: Request,
  db: Database,
  {
    api,
    clientIp,
    overrides,
    onFileChosen,
  }: { api: boolean; clientIp: string | null; overrides?: Record<string, string>; onFileChosen?: () => void },
  keep: (body: ParsedBody) => void,
): Promise<Gated> {
  if (request.method.toUpperCase() !== "POST") stop(failure(405, "Please send the form with POST."));
  if (isCrossOrigin(request)) stop(failure(403, CROSS_ORIGIN_MESSAGE));

  const limit = await takeRateLimit(db, `${def.id}:${rateLimitSubject(clientIp)}`, def.rateLimit);
  if (!limit.allowed) {
    // Keep what the visitor typed (no-JS), but never spend effort on files.
    const body = await readBody(request).catch(() => null);
    stop(
      failure(429, RATE_LIMIT_MESSAGE, {
        reply: valuesOnlyReply(body?.fields ?? null, def.schema, hiddenFields(def)),
        headers: { "Retry-After": String(limit.retryAfterSeconds) },
      }),
    );
  }

  // The honeypot, the fill time and the captcha's cheap check: for a form that takes files,
  // before any file byte is written; for the others, once the body is read.
  const isPreview = (fields: FormData) =>
    Boolean(def.preview && !api && fields.get(def.preview.field) === def.preview.value);
  const cheapChecks = async (fields: FormData) => {
    for (const [key, value] of Object.entries(overrides ?? {})) fields.set(key, value);
    // "Show price" is answered before the honeypot and the captcha (it checks, stores and charges nothing).
    if (isPreview(fields)) return;
    // A private link's form is guarded by its link's token, not by bot rules.
    if (def.guard === "link") return;
    const dropped = honeypot(def, fields, api, clientIp);
    if (dropped) stop(dropped);
    // A post whose captcha cannot pass (and is no resubmission of a stored render) is refused
    // before its files are written, with what the whole post would have been told. The pages
    // place the captcha before the files (LeadForm's `files`); an API client may send it after.
    if (def.uploads && (!api || hasCaptchaResponse(fields)) && !captchaMayPass(fields)) {
      const submission = validate(def, fields, {}, api);
      const key = readSubmissionKey(fields);
      if (!key || !(await storedSubmission(db, key))) stop(captchaRefusal(def, submission, api));
    }
  };
  let body: ParsedBody;
  try {
    body = await readBody(request, def.uploads, def.uploads ? { beforeFiles: cheapChecks, onFileChosen } : {});
  } catch (error) {
    if (error instanceof BodyError)
      stop(
        failure(error.status, error.message, {
          headers: error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined,
        }),
      );
    throw error;
  }
  if (!def.uploads) await cheapChecks(body.fields);
  keep(body);
  for (const [key, value] of Object.entries(overrides ?? {})) body.fields.set(key, value);
  if (isPreview(body.fields)) {
    const fieldErrors = (await def.preview!.check?.(body.fields)) ?? {};
    const reply = valuesOnlyReply(body.fields, def.schema, hiddenFields(def));
    stop({
      ok: false,
      status: 200,
      message: "",
      fieldErrors,
      reply: reply && { ...reply, error: fieldErrors },
      preview: true,
      answered: true,
    });
  }
  return { body, submissionKey: readSubmissionKey(body.fields) };
}

/** A filled, missing (HTML posts) or too-quickly posted honeypot: the answer to a bot, or null. */
function honeypot(def: FormDefinition, fields: FormData, api: boolean, clientIp: string | null): FormOutcome | null {
  const tripped = isHoneypotTripped(fields, {
    required: !api,
    minFillMs: env().FORM_MIN_FILL_MS,
    submissionKey: readSubmissionKey(fields),
  });
  if (!tripped) return null;
  log.info({ form: def.id, ip: clientIp }, "honeypot tripped; submission dropped");
  // A paid form never says "paid" or "booked" for what it did not take: a person whose
  // autofill filled the trap, or who sent it within the minimum fill time, sends it again.
  if (def.payment) return failure(400, THROWN_ERROR, { reply: valuesOnlyReply(fields, def.schema, hiddenFields(def)) });
  return droppedAsSuccess(def);
}
