import type { Database } from "@db/client.server";
import { log } from "~/lib/log.server";
import { enqueueSubmissionMail } from "~/mail/submission-mail.server";
import { recordSubmission } from "../submission-keys.server";
import { storeUploads } from "../uploads.server";
import type { FormDefinition, Handled, SubmissionContext } from "./definition";
import { errorCode, isDatabaseUnavailable } from "./errors.server";

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
