import { parseWithZod } from "@conform-to/zod/v4";
import type { Database } from "@db/client.server";
import { rateLimitSubject } from "~/http/client-ip.server";
import { noJsRateLimit, RATE_LIMIT_MESSAGE, takeRateLimit } from "~/http/rate-limit.server";
import { captchaPassField, hasCaptchaResponse, verifyCaptcha } from "../captcha/verifier.server";
import { spendCaptchaPass, type CaptchaPassed } from "../captcha/pass.server";
import { CAPTCHA_MESSAGE, SPAM_CHECK_MESSAGE } from "../captcha/types";
import { CHECK_FIELDS_MESSAGE } from "../result";
import type { FormDefinition } from "./definition";
import { failure, hiddenFields, refusal, type Submission, type Valid } from "./reply";
import { stop } from "./stop";

/**
 * The form looked at: its fields against the schema the browser uses too (and the upload
 * rules' verdicts), then the captcha, spent once, and the tighter budget of answers through the
 * no-JS sum.
 */
export type { Submission, Valid } from "./reply";

export function validate(
  def: FormDefinition,
  fields: FormData,
  uploadErrors: Record<string, string[]>,
  api: boolean,
  { captchaMissing = !hasCaptchaResponse(fields) } = {},
): Valid {
  const submission = parseWithZod(fields, { schema: def.schema }) as Submission;
  const hidden = hiddenFields(def);
  const fieldErrors: Record<string, string[]> = { ...uploadErrors };
  if (submission.status !== "success") {
    for (const [name, messages] of Object.entries(submission.error ?? {})) {
      if (messages?.length) fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
    }
  }
  if (Object.keys(fieldErrors).length > 0) {
    // Without JavaScript both can be wrong at once: the page says both (the API lists the fields in `errors`).
    const message = !captchaMissing
      ? CHECK_FIELDS_MESSAGE
      : api
        ? CAPTCHA_MESSAGE
        : `${CHECK_FIELDS_MESSAGE} ${SPAM_CHECK_MESSAGE}`;
    stop(
      failure(400, message, {
        fieldErrors,
        reply: submission.reply({ fieldErrors: uploadErrors, hideFields: hidden }),
      }),
    );
  }
  // A Conform "intent" (client-side validation request) is not a submission.
  if (submission.status !== "success")
    stop(failure(400, CHECK_FIELDS_MESSAGE, { reply: submission.reply({ hideFields: hidden }) }));
  return submission as Valid;
}

/** A captcha missing, wrong or spent: SPEC's words to an API client, plain ones on a page. */
export function captchaRefusal(def: FormDefinition, submission: Submission, api: boolean) {
  return refusal(submission, hiddenFields(def), 400, api ? CAPTCHA_MESSAGE : SPAM_CHECK_MESSAGE);
}

/**
 * Spends the captcha: how it was passed, or false when it was wrong, missing or spent already
 * (a resubmission, a twin). A paid render's post may carry the pass its refused charge earned
 * (../captcha/pass.server.ts), bound to the render's key: used first, once, in the captcha's place.
 */
export async function spendCaptcha(
  def: FormDefinition,
  db: Database,
  fields: FormData,
  submission: Submission,
  clientIp: string | null,
  key: string | null,
): Promise<CaptchaPassed | false> {
  if (!hasCaptchaResponse(fields)) return false;
  const pass = captchaPassField(fields);
  const passed = pass && def.payment && key ? await spendCaptchaPass(db, pass, def.id, key) : null;
  const verdict = passed ? passed.kind : await verifyCaptcha(db, fields, clientIp);
  // The no-JS sum is solvable by a script: answers through it (and the passes it earned) get a tighter budget of their own.
  if (verdict === "sum") {
    const nojs = await takeRateLimit(db, `nojs:${def.id}:${rateLimitSubject(clientIp)}`, noJsRateLimit());
    if (!nojs.allowed) {
      stop(
        refusal(
          submission,
          hiddenFields(def),
          429,
          RATE_LIMIT_MESSAGE,
          {},
          {
            headers: { "Retry-After": String(nojs.retryAfterSeconds) },
          },
        ),
      );
    }
  }
  if (verdict === false) return false;
  return passed ?? { kind: verdict, passesUsed: 0 };
}
