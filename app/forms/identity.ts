import type { UploadRule } from "~/http/upload-rule";

/**
 * A form's identity: what its view (Form.tsx) and its handler
 * (handle.server.ts) must agree on, declared once in the form's folder
 * (`<form>/identity.ts`, client-safe) and read by both, so an id or a limit is
 * written in one place:
 *
 *  - `id`: the form's name in the page (LeadForm's id, which tells which form
 *    an answer belongs to) and on the server (its rate-limit bucket, its
 *    submission keys);
 *  - `uploads`: its photo field, the names the API may use for it, and the
 *    limits the browser checks before sending and the server enforces;
 *  - `secretFields`: fields never sent back to the browser (re-typed after a
 *    refusal: an SSN, a card number), and `secretsNotice`, what a refused post
 *    that carried them says about it.
 */

/** The rule for a form's file field (app/http/upload-rule.ts: the body reader enforces it). */
export type FormUploadRule = UploadRule;

export type FormIdentity = {
  id: string;
  uploads?: FormUploadRule;
  secretFields?: readonly string[];
  secretsNotice?: string;
};
