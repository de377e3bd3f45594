import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@db/client.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { paymentKey, runPaidCommand, undoUnstored } from "~/payments/command.server";
import { liveCharge, type PaymentOutcome } from "~/payments/payments.server";
import { mailReconcileEvent } from "~/mail/staff-notices.server";
import { claimRender, claimState, renewClaim, storedSubmission } from "../submission-keys.server";
import type { Submission } from "./check.server";
import type { FormDefinition, FormPayment, PayOptions } from "./definition";
import {
  CHARGED_NOT_SAVED_MESSAGE,
  failure,
  hiddenFields,
  PAYMENT_CANCELLED_MESSAGE,
  PAYMENT_DECLINED_MESSAGE,
  PRICED_KEY_MESSAGE,
  refusal,
  UNAVAILABLE_MESSAGE,
  valuesOnlyReply,
  VOIDED_NOT_SAVED_MESSAGE,
  withNextStep,
} from "./reply";
import { stop } from "./stop";

/**
 * A paid form's HTTP side: the render's claim (one post of it answered at a time; a twin waits
 * for the first one's outcome) and the answers to the paid command's outcomes. The command itself
 * (hold, charge once, release, undo) is app/payments/command.server.ts.
 */

/** A running claim not renewed for this long belongs to a post whose process died or lost the database. */
const CLAIM_STALE_MS = 5_000;
const CLAIM_RENEW_MS = 1_500;
const TWIN_POLL_MS = 100;

/**
 * Makes this post the one answering its render, waiting for a post of it already running (a
 * double click) however long that takes, up to the processor's timeout: then answers as that
 * post did (its refusal), or returns undefined when that post stored the render (the pipeline's
 * one "already stored?" check answers with it). Returns a release for the claim's renewal.
 */
export async function claimPaidRender(
  def: FormDefinition,
  db: Database,
  key: string,
  fields: FormData,
): Promise<(() => void) | undefined> {
  const deadline = Date.now() + env().PAYMENT_TIMEOUT_MS + 5_000;
  while (!(await claimRender(db, key, def.id, CLAIM_STALE_MS))) {
    for (;;) {
      if (await storedSubmission(db, key)) return undefined;
      const first = await claimState(db, key);
      if (first.state === "refused")
        stop(failure(first.status, first.message, { reply: valuesOnlyReply(fields, def.schema, hiddenFields(def)) }));
      if (first.state === "none" || (first.state === "running" && first.ageMs > CLAIM_STALE_MS)) break;
      if (Date.now() > deadline) stop(failure(503, UNAVAILABLE_MESSAGE, { headers: { "Retry-After": "30" } }));
      await sleep(TWIN_POLL_MS);
    }
  }
  const renew = setInterval(() => void renewClaim(db, key).catch(() => {}), CLAIM_RENEW_MS);
  renew.unref();
  return () => clearInterval(renew);
}

/** The charge a render already made (its captcha spent by that post): a re-send completes or settles it. */
export async function earlierCharge(def: FormDefinition, db: Database, key: string) {
  const charge = await liveCharge(db, paymentKey(def.id, key));
  return charge && !charge.linked ? charge : undefined;
}

export type Paid<H> = { payment?: PaymentOutcome; paymentKey: string; hold?: H };

/**
 * The pay step: runs the form's paid command (app/payments/command.server.ts) and answers its
 * refusals as the form's page does, values kept.
 */
export async function reserveAndCharge<V, H>(
  def: FormDefinition,
  db: Database,
  value: V,
  submission: Submission,
  { key, ...options }: { key: string; request: Request; clientIp: string | null } & PayOptions,
): Promise<Paid<H>> {
  const command = def.payment as FormPayment<V, H>;
  const outcome = await runPaidCommand(db, command, value, { key: paymentKey(def.id, key), ...options });
  const refuse = (status: number, message: string, errors = {}, extra = {}) =>
    stop(refusal(submission, hiddenFields(def), status, message, errors, extra));
  switch (outcome.kind) {
    case "paid":
      return outcome;
    case "refused":
      return refuse(
        outcome.refusal.status,
        outcome.refusal.message,
        outcome.refusal.fieldErrors,
        outcome.refusal.options.cardless ? { cardless: true } : {},
      );
    case "priced-key":
      return refuse(409, PRICED_KEY_MESSAGE);
    case "pending-refused":
      // A change that stands on a charge whose answer is unknown does not happen until it is known.
      return refuse(202, outcome.message, { cardNumber: [outcome.message] });
    case "not-taken": {
      if (outcome.status === "voided" || outcome.status === "refunded") return refuse(402, PAYMENT_CANCELLED_MESSAGE);
      // Refused, nothing taken: the same render may be sent again with another card (its captcha
      // pass: ./run.server.ts). A card the issuer declined says what to do next.
      const said = outcome.message ?? command.declinedMessage ?? PAYMENT_DECLINED_MESSAGE;
      const message = outcome.status === "declined" ? withNextStep(said) : said;
      return refuse(402, message, {}, { paymentRefused: true });
    }
  }
}

/** Money taken for something that could not be stored: what the refusal says of it. */
export async function settleUnstored(def: FormDefinition, db: Database, paid: Paid<unknown>): Promise<string> {
  const settled = await undoUnstored(db, def.payment ?? {}, paid, { notify: mailReconcileEvent });
  const paymentId = paid.payment?.paymentId;
  if (settled.undo === "none") return "";
  if (settled.undo === "undone") {
    log.warn({ form: def.id, paymentId }, "charge voided: its submission could not be stored");
    return VOIDED_NOT_SAVED_MESSAGE;
  }
  if (settled.undo === "failed")
    log.error(
      { form: def.id, paymentId, err: { name: (settled.error as Error)?.name } },
      "charge for an unstored submission not voided yet: the reconciliation will",
    );
  return CHARGED_NOT_SAVED_MESSAGE;
}
