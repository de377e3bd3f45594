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

export const CAPTCHA_MESSAGE = "Please complete the CAPTCHA.";

/** Field names the pipeline owns; never echoed back into a form's values. */
export const CAPTCHA_FIELDS = [CAPTCHA_TOKEN_FIELD, RECAPTCHA_RESPONSE_FIELD, NOJS_ANSWER_FIELD, NOJS_TOKEN_FIELD];
