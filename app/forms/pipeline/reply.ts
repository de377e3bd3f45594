import type { Submission as ConformSubmission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "~/lib/zod";
import { company } from "~/lib/company";
import { CAPTCHA_FIELDS, CAPTCHA_PASS_FIELD } from "../captcha/types";
import { HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD } from "../honeypot.server";
import { SUBMISSION_KEY_FIELD } from "../result";
import type { FormDefinition, FormFailure, FormOutcome } from "./definition";

/** A post as Conform parsed it against the form's schema (./check.server.ts looks at it). */
export type Submission = ConformSubmission<Record<string, unknown>>;
/** A submission whose fields passed: its `value` is the schema's output. */
export type Valid = Extract<Submission, { status: "success" }>;

/**
 * The pipeline's answers: a refusal, a stored submission's success, the values kept for a
 * no-JS re-render. Every answer a step gives is made here.
 */

/** Never echoed back into a form (captcha, honeypot), plus the form's secret fields. */
export function hiddenFields(def: FormDefinition): string[] {
  return [...CAPTCHA_FIELDS, HONEYPOT_NAME_FIELD, HONEYPOT_VALID_FROM_FIELD, ...(def.secretFields ?? [])];
}

export function failure(status: number, message: string, extra: Partial<FormOutcome> = {}): FormOutcome {
  return { ok: false, status, message, fieldErrors: {}, reply: null, answered: true, ...extra };
}

/** A Conform result that keeps the given values (no-JS re-render) without validating them. */
export function valuesOnlyReply(
  fields: FormData | null,
  schema: z.ZodType,
  hidden: string[],
): SubmissionResult<string[]> | null {
  if (!fields) return null;
  const result = parseWithZod(fields, { schema }).reply({ hideFields: hidden });
  return { ...result, status: "error", error: {} };
}

/** A refusal with its message above the form and the values kept (secrets cleared). */
export function refusal(
  submission: Submission,
  hidden: string[],
  status: number,
  message: string,
  fieldErrors: Record<string, string[]> = {},
  extra: Partial<FormOutcome> = {},
): FormOutcome {
  return failure(status, message, {
    fieldErrors,
    reply: submission.reply({ fieldErrors, formErrors: [message], hideFields: hidden }),
    ...extra,
  });
}

export function fromFormFailure(submission: Submission, hidden: string[], error: FormFailure): FormOutcome {
  return refusal(
    submission,
    hidden,
    error.status,
    error.message,
    error.fieldErrors,
    error.options.cardless ? { cardless: true } : {},
  );
}

/** The answer to a stored submission: its success, now or on a resubmission of its key. */
export function success(
  def: FormDefinition,
  submission: Submission,
  hidden: string[],
  stored: { id: number; message?: string; redirectTo?: string },
): FormOutcome {
  return {
    ok: true,
    status: 200,
    message: stored.message ?? def.successMessage,
    fieldErrors: {},
    reply: def.keepValuesOnSuccess
      ? submission.reply({ hideFields: [...hidden, SUBMISSION_KEY_FIELD] })
      : submission.reply({ resetForm: true }),
    redirectTo: stored.redirectTo,
    submissionId: stored.id,
  };
}

/** A lead form's answer to a bot (a tripped honeypot): a success with nothing stored. */
export function droppedAsSuccess(def: FormDefinition): FormOutcome {
  return { ok: true, status: 200, message: def.successMessage, fieldErrors: {}, reply: { initialValue: null } };
}

export const UNAVAILABLE_MESSAGE = `We could not save your request just now. Please try again in a minute, or call us at ${company.phone.display}.`;
/** What a person can do about a declined card (said after the processor's own words). */
export const DECLINED_NEXT_STEP = "Try another card, or call your bank.";
export const PAYMENT_DECLINED_MESSAGE = `Your card was declined. ${DECLINED_NEXT_STEP}`;

/** A refused charge's message with what to do next: the processor's (or SPEC's 'Payment failed.') kept as it is, the next step after it. */
export function withNextStep(message: string): string {
  const said = message.trim();
  return said.endsWith(DECLINED_NEXT_STEP) ? said : `${said} ${DECLINED_NEXT_STEP}`;
}
/** A render whose charge was voided after its store failed: the key is spent, the page must be loaded again. */
export const PRICED_KEY_MESSAGE = `This page was already sent and paid with another visit, cart or amount, and that payment stands as it was: nothing more was charged. Please reload the page and send the form again, or call us at ${company.phone.display}.`;
export const PAYMENT_CANCELLED_MESSAGE =
  "Your payment was cancelled and nothing was charged. Please reload the page and send the form again.";
/** The store failed after the card was approved, and the charge could not be voided at once. */
export const CHARGED_NOT_SAVED_MESSAGE = `We could not save your request just now. Your card was charged, and the charge will be cancelled automatically within a few minutes: you will not pay for this attempt. Please try again in a minute, or call us at ${company.phone.display}.`;
/** The store failed after the card was approved, and the charge was voided at once. */
export const VOIDED_NOT_SAVED_MESSAGE = `We could not save your request just now, so your payment was cancelled and nothing was charged. Please reload the page and send the form again in a minute, or call us at ${company.phone.display}.`;

/**
 * The refusal's kept values carry the render's captcha pass (../captcha/pass.server.ts), which
 * the form posts back with the next card: the page's own hidden field, with and without
 * JavaScript. None once the render has used its passes up: the captcha is solved again.
 */
export function withCaptchaPass(outcome: FormOutcome, pass: string | undefined | null): FormOutcome {
  if (!pass || !outcome.reply) return outcome;
  return {
    ...outcome,
    reply: { ...outcome.reply, initialValue: { ...outcome.reply.initialValue, [CAPTCHA_PASS_FIELD]: pass } },
  };
}
