import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "@db/client.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { performGiveBacks } from "~/payments/give-back.server";
import {
  chargeOnce,
  findPayment,
  liveCharge,
  performCharge,
  PricedKeyError,
  type PaymentOutcome,
} from "~/payments/payments.server";
import { mailReconcileEvent } from "~/mail/staff-notices.server";
import { undoCharge } from "~/payments/reconcile.server";
import { claimRender, claimState, renewClaim, storedSubmission } from "../submission-keys.server";
import type { Submission } from "./check.server";
import { FormFailure, type FormDefinition, type PayOptions } from "./definition";
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
 * A paid form's steps (issue 16, issue 28): the render's claim (one post of it answered at a
 * time; a twin waits for the first one's outcome), the hold (`reserve`), the one charge per
 * key (`chargeOnce`), and what happens to money taken for something that could not be stored.
 */

/** A paid render's idempotency key: the form's id and its render's submission key. */
export const paymentKey = (form: string, key: string) => `${form}:${key}`;

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
 * Hold, then pay: charge once (or send the voids and refunds the hold requested); a refusal
 * gives the hold back and ends the run.
 */
export async function reserveAndCharge<V, H>(
  def: FormDefinition,
  db: Database,
  value: V,
  submission: Submission,
  options: { key: string; request: Request; clientIp: string | null } & PayOptions,
): Promise<Paid<H>> {
  try {
    return await holdAndPay<V, H>(def, db, value, submission, options);
  } catch (error) {
    // The render's key charged before for other priced fields: never stored at that amount.
    if (!(error instanceof PricedKeyError)) throw error;
    await def.payment?.release?.(db, paymentKey(def.id, options.key)).catch(() => {});
    stop(refusal(submission, hiddenFields(def), 409, PRICED_KEY_MESSAGE));
  }
}

async function holdAndPay<V, H>(
  def: FormDefinition,
  db: Database,
  value: V,
  submission: Submission,
  { key, request, clientIp, gateway, now }: { key: string; request: Request; clientIp: string | null } & PayOptions,
): Promise<Paid<H>> {
  const charge = def.payment!;
  const idempotencyKey = paymentKey(def.id, key);
  const held = await charge.reserve?.(db, value, idempotencyKey, request, { gateway, now });
  if (held instanceof FormFailure)
    stop(refusal(submission, hiddenFields(def), held.status, held.message, held.fieldErrors));
  const hold = held?.hold as H | undefined;
  const ledger = held?.ledger;
  // Money going back (a move to a cheaper window): the voids and refunds requested with the change.
  if (ledger && "giveBacks" in ledger) {
    await performGiveBacks(db, ledger.giveBacks, { gateway });
    return { paymentKey: idempotencyKey, hold };
  }
  const amountCents = charge.amountCents(value, hold);
  if (!ledger && amountCents === 0) return { paymentKey: idempotencyKey, hold };
  const request_ = {
    amountCents,
    card: charge.card(value),
    description: charge.description(value),
    idempotencyKey,
    priced: charge.priced(value, hold as H),
    ...charge.details?.(value, clientIp),
  };
  const payment = !ledger
    ? await chargeOnce(db, { purpose: charge.purpose, ...request_ }, { gateway })
    : ledger.fresh
      ? await performCharge(db, ledger.chargeId, request_, { gateway })
      : ((await findPayment(db, ledger.chargeId)) ?? (await performCharge(db, ledger.chargeId, request_, { gateway })));
  if (payment.status === "pending" && charge.refusePending) {
    // A change that stands on a charge whose answer is unknown does not happen until it is known.
    await charge.release?.(db, idempotencyKey);
    const message = charge.refusePending(value, hold as never);
    stop(refusal(submission, hiddenFields(def), 202, message, { cardNumber: [message] }));
  }
  if (payment.status !== "approved" && payment.status !== "pending") {
    // Declined or refused: nothing is stored but the attempt's payments row (or, for a render
    // whose charge was voided after a failed store, nothing new at all).
    await charge.release?.(db, idempotencyKey);
    if (payment.status === "voided" || payment.status === "refunded")
      stop(refusal(submission, hiddenFields(def), 402, PAYMENT_CANCELLED_MESSAGE));
    // Refused, nothing taken: the same render may be sent again with another card (its captcha
    // pass: ./run.server.ts). A card the issuer declined says what to do next.
    const said = payment.message ?? charge.declinedMessage ?? PAYMENT_DECLINED_MESSAGE;
    const message = payment.status === "declined" ? withNextStep(said) : said;
    stop(refusal(submission, hiddenFields(def), 402, message, {}, { paymentRefused: true }));
  }
  return { payment, paymentKey: idempotencyKey, hold };
}

/**
 * Money taken for something that could not be stored: voided at once (and its hold given back),
 * or — the database gone too — left to the reconciliation, which voids it within minutes. The
 * answer says which. A twin's charge (same key, still in flight) is that post's to settle.
 */
export async function settleUnstored(def: FormDefinition, db: Database, paid: Paid<unknown>): Promise<string> {
  if (!paid.payment || paid.payment.status !== "approved" || paid.payment.repeated) return "";
  try {
    const settled = await undoCharge(db, paid.payment.paymentId, { hooks: { notify: mailReconcileEvent } });
    await def.payment?.release?.(db, paid.paymentKey).catch(() => {});
    if (settled && (settled.outcome === "voided" || settled.outcome === "refunded")) {
      log.warn(
        { form: def.id, paymentId: paid.payment.paymentId },
        "charge voided: its submission could not be stored",
      );
      return VOIDED_NOT_SAVED_MESSAGE;
    }
  } catch (error) {
    log.error(
      { form: def.id, paymentId: paid.payment.paymentId, err: { name: (error as Error)?.name } },
      "charge for an unstored submission not voided yet: the reconciliation will",
    );
  }
  return CHARGED_NOT_SAVED_MESSAGE;
}
