/**
 * What the browser needs to show the captcha (client-safe, no secrets).
 * The server decides which verifier runs (DECISIONS 10).
 */
export type CaptchaClientConfig =
  { provider: "altcha"; challengeUrl: string } | { provider: "recaptcha"; siteKey: string };

/** The no-JavaScript challenge: "What is A + B?" and its server-signed token. */
export type NoJsChallenge = { question: string; token: string };

export type CaptchaBootstrap = { config: CaptchaClientConfig; noJs: NoJsChallenge };

/** The payload name of SPEC §3/§7; the widget (ALTCHA or reCAPTCHA) fills it. */
export const CAPTCHA_TOKEN_FIELD = "recaptcha_token";
/** reCAPTCHA's own field, accepted as well. */
export const RECAPTCHA_RESPONSE_FIELD = "g-recaptcha-response";
/** No-JS sum: the visitor's answer and the signed challenge. */
export const NOJS_ANSWER_FIELD = "captcha_answer";
export const NOJS_TOKEN_FIELD = "captcha_challenge";

/**
 * A paid render whose charge was refused: its captcha stays passed for the next post of that
 * render (./pass.server.ts). The server puts it in the refusal's values; the form posts it back.
 */
export const CAPTCHA_PASS_FIELD = "captcha_pass";

/**
 * A captcha missing or wrong, as the API answers it: SPEC §8's and DECISIONS 10's words, which
 * API clients may compare.
 */
export const CAPTCHA_MESSAGE = "Please complete the CAPTCHA.";
/**
 * The same refusal on the site's pages, in plain words (issue 38 item 3): the error summary lists
 * it as a link to the spam check, and the check says it beside itself.
 */
export const SPAM_CHECK_MESSAGE = "Please complete the spam check.";
/** The spam check's place in a form (the error summary's link lands there): `{form id}-captcha`. */
export const spamCheckId = (formId: string) => `${formId}-captcha`;
/** The summary's key of the spam check's entry (not a field of any schema). */
export const SPAM_CHECK_ENTRY = "captcha";

/** Field names the pipeline owns; never echoed back into a form's values (a new pass is put there by the pipeline). */
export const CAPTCHA_FIELDS = [
  CAPTCHA_TOKEN_FIELD,
  RECAPTCHA_RESPONSE_FIELD,
  NOJS_ANSWER_FIELD,
  NOJS_TOKEN_FIELD,
  CAPTCHA_PASS_FIELD,
];

/** The captcha pass a refused post's answer carries (in its kept values), if any. */
export function captchaPassOf(values: unknown): string | undefined {
  const pass =
    values && typeof values === "object" ? (values as Record<string, unknown>)[CAPTCHA_PASS_FIELD] : undefined;
  return typeof pass === "string" && pass ? pass : undefined;
}
