import type { DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { addCspAllowances } from "~/lib/startup.server";
import { verifyAltchaPayload } from "./altcha.server";
import { verifyRecaptchaToken } from "./recaptcha.server";
import { checkSumAnswer, createSumChallenge, verifySumAnswer } from "./sum.server";
import {
  CAPTCHA_PASS_FIELD,
  CAPTCHA_TOKEN_FIELD,
  NOJS_ANSWER_FIELD,
  NOJS_TOKEN_FIELD,
  RECAPTCHA_RESPONSE_FIELD,
  type CaptchaBootstrap,
  type CaptchaClientConfig,
} from "./types";

/**
 * The pluggable captcha (DECISIONS 10). One verifier is active: Google
 * reCAPTCHA v2 when both keys are configured, otherwise the self-hosted ALTCHA
 * proof of work. Visitors without JavaScript answer the signed sum instead,
 * whatever the verifier.
 */
export interface CaptchaVerifier {
  readonly provider: CaptchaClientConfig["provider"];
  clientConfig(): CaptchaClientConfig;
  verify(db: DbOrTx, token: string, ip: string | null): Promise<boolean>;
}

export const ALTCHA_CHALLENGE_PATH = "/api/captcha/challenge";

const altchaVerifier: CaptchaVerifier = {
  provider: "altcha",
  clientConfig: () => ({ provider: "altcha", challengeUrl: ALTCHA_CHALLENGE_PATH }),
  verify: (db, token) => verifyAltchaPayload(db, token),
};

function recaptchaVerifier(siteKey: string, secretKey: string): CaptchaVerifier {
  return {
    provider: "recaptcha",
    clientConfig: () => ({ provider: "recaptcha", siteKey }),
    verify: (_db, token, ip) => verifyRecaptchaToken(secretKey, token, ip),
  };
}

export function captchaVerifier(): CaptchaVerifier {
  const e = env();
  if (e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY)
    return recaptchaVerifier(e.RECAPTCHA_SITE_KEY, e.RECAPTCHA_SECRET_KEY);
  return altchaVerifier;
}

// reCAPTCHA's script and frames come from Google; ALTCHA solves in a blob: Web Worker.
addCspAllowances(() =>
  captchaVerifier().provider === "recaptcha"
    ? {
        scriptSrc: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
        frameSrc: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
        connectSrc: ["https://www.google.com/recaptcha/"],
      }
    : { workerSrc: ["'self'", "blob:"] },
);

/** What a page with a form needs for its captcha (loader data). */
export function captchaBootstrap(): CaptchaBootstrap {
  return { config: captchaVerifier().clientConfig(), noJs: createSumChallenge() };
}

function field(fields: FormData, name: string): string {
  const value = fields.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** True when the submission carries something to verify at all (a paid render's captcha pass included). */
export function hasCaptchaResponse(fields: FormData): boolean {
  return Boolean(
    field(fields, CAPTCHA_TOKEN_FIELD) ||
    field(fields, RECAPTCHA_RESPONSE_FIELD) ||
    (field(fields, NOJS_ANSWER_FIELD) && field(fields, NOJS_TOKEN_FIELD)) ||
    field(fields, CAPTCHA_PASS_FIELD),
  );
}

/** The captcha pass a post carries (./pass.server.ts), or "". */
export function captchaPassField(fields: FormData): string {
  return field(fields, CAPTCHA_PASS_FIELD);
}

/**
 * Which kind of answer was verified: "token" for the widget's (proof of work
 * or reCAPTCHA), "sum" for the no-JS sum — solvable by a script, so the
 * pipeline gives it a tighter budget — or false when none was valid.
 */
export type CaptchaVerdict = "token" | "sum" | false;

/** Verifies (and spends) whichever captcha answer the submission carries. */
export async function verifyCaptcha(db: DbOrTx, fields: FormData, ip: string | null): Promise<CaptchaVerdict> {
  const token = field(fields, CAPTCHA_TOKEN_FIELD) || field(fields, RECAPTCHA_RESPONSE_FIELD);
  if (token) return (await captchaVerifier().verify(db, token, ip)) ? "token" : false;
  const answer = field(fields, NOJS_ANSWER_FIELD);
  const challenge = field(fields, NOJS_TOKEN_FIELD);
  if (answer && challenge) return (await verifySumAnswer(db, answer, challenge)) ? "sum" : false;
  return false;
}

/**
 * What can be told of the captcha without spending it or asking anyone (before a body's files
 * are written: issue 28): false when there is no answer, or the no-JS sum is wrong or expired.
 * A token (ALTCHA, reCAPTCHA) is judged later, by verifyCaptcha.
 */
export function captchaMayPass(fields: FormData): boolean {
  if (!hasCaptchaResponse(fields)) return false;
  if (field(fields, CAPTCHA_TOKEN_FIELD) || field(fields, RECAPTCHA_RESPONSE_FIELD)) return true;
  if (field(fields, CAPTCHA_PASS_FIELD)) return true; // judged with its render's key, by spendCaptcha
  return checkSumAnswer(field(fields, NOJS_ANSWER_FIELD), field(fields, NOJS_TOKEN_FIELD)) !== null;
}
