import type { Database } from "@db/client.server";
import { log } from "~/lib/log.server";
import { enqueueSubmissionMail } from "~/mail/submission-mail.server";
import { recordSubmission } from "../submission-keys.server";
import { storeUploads } from "../uploads.server";
import type { FormDefinition, Handled, SubmissionContext } from "./definition";
import { errorCode, isDatabaseUnavailable, logUnexpected } from "./errors.server";
import { PaymentSettledError } from "~/payments/payments.server";
import type { Submission } from "./check.server";
import { FormFailure, type FormOutcome } from "./definition";
import { settleUnstored, type Paid } from "./paid.server";
import { fromFormFailure, hiddenFields, PAYMENT_CANCELLED_MESSAGE, refusal } from "./reply";

/**
 * The store: ONE transaction holding the form's record (`handle`), its submission key, its
 * uploads and its outbox e-mails. A pooled connection broken by a database restart is tried
 * once more — safe only with a submission key (were the first commit done after all, the key's
 * unique row makes the second one roll back).
 */
const RETRY_DELAY_MS = 250;

export async function store<V>(
  def: FormDefinition,
  db: Database,
  value: V,
  ctx: SubmissionContext,
  submissionKey: string | null,
): Promise<Handled> {
  const once = () =>
    db.transaction(async (tx) => {
      const handled = await def.handle(tx, value, ctx);
      const stored = { submissionTable: handled.submission.table, submissionId: handled.submission.id };
      // The key and the e-mails need only the row's id: sent together, one round trip.
      await Promise.all([
        submissionKey && recordSubmission(tx, submissionKey, def.id, stored),
        handled.ownMails
          ? undefined
          : enqueueSubmissionMail(tx, {
              ...handled,
              noun: def.noun,
              photos: ctx.uploads.length,
              page: ctx.page,
              clientIp: ctx.clientIp,
            }),
      ]);
      await storeUploads(tx, ctx.uploads, handled.submission);
      return handled;
    });
  try {
    return await once();
  } catch (error) {
    if (!submissionKey || !isDatabaseUnavailable(error instanceof Error && error.cause ? error.cause : error))
      throw error;
    log.warn({ form: def.id, err: { code: errorCode(error) } }, "database connection lost; retrying once");
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    return once();
  }
}

/**
 * The store refused or failed (and no twin stored the render): the form's own refusal, or the
 * database's; money taken for it is settled first, and said (a charge given back, or its state).
 */
export async function storeRefusal(
  def: FormDefinition,
  db: Database,
  submission: Submission,
  paid: Paid<unknown> | undefined,
  error: unknown,
): Promise<FormOutcome> {
  const hidden = hiddenFields(def);
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
