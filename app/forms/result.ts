import type { SubmissionResult } from "@conform-to/react";

/**
 * What a form's route action returns to its view (client-safe). `form` says
 * which form answered, so a page with two forms shows each its own result.
 */
export type FormActionData = {
  form: string;
  /** 'preview': the answer to a "Show price" post (no-JS), the form re-rendered with nothing sent. */
  status: "success" | "error" | "preview";
  message: string;
  /** A second line under a refusal's message: the secret fields to type again. */
  notice?: string;
  /** A refused post carried photos in this field: without JavaScript they are gone ("Choose your photos again"). */
  photosDropped?: string;
  lastResult: SubmissionResult<string[]> | null;
  /** A refused post's re-render: honeypot fields answering it (its re-send skips the minimum fill time). */
  honeypot?: { nameFieldName: string; validFromFieldName: string; encryptedValidFrom: string };
};

/** The hidden field carrying a form render's submission key (app/forms/submission-keys.server.ts). */
export const SUBMISSION_KEY_FIELD = "submission_key";

/** SPEC §8 texts the views fall back to. */
export const SUBMISSION_FAILED = "Submission failed.";
export const THROWN_ERROR = "An error occurred. Please try again.";
export const CHECK_FIELDS_MESSAGE = "Please correct the highlighted fields and send the form again.";

export function isFormActionData(value: unknown): value is FormActionData {
  return Boolean(value && typeof value === "object" && "form" in value && "status" in value);
}

/** The message a view shows for an answer: the server's, or SPEC §8's fallback. */
export function shownMessage(result: Pick<FormActionData, "status" | "message" | "notice"> | null | undefined) {
  if (!result || result.status === "preview") return null;
  return {
    status: result.status,
    message: result.message || (result.status === "error" ? SUBMISSION_FAILED : ""),
    notice: result.notice,
  };
}
