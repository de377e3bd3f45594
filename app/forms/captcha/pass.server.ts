import { randomBytes } from "node:crypto";
import type { DbOrTx } from "@db/client.server";
import { formHmac, safeEqual } from "~/lib/crypto.server";
import { spendToken } from "./spent.server";

/**
 * The captcha pass of a paid render whose charge was refused (docs/decisions/059-one-card-entry.md).
 *
 * A paid form spends its captcha before the charge (app/forms/pipeline/run.server.ts: claim →
 * captcha → pay), so a declined card has used it up. A person who then types another card into
 * the same form should not have to prove again that they are one; a script trying card after
 * card should. So a refused charge is answered with a pass for that render only: signed, bound
 * to the form and the render's submission key, good for one post, for 30 minutes, and for at most
 * CAPTCHA_PASS_RETRIES further attempts per captcha solved (each refusal of a post that used a pass
 * issues the next one, counting). Used once (its nonce spent like a captcha token, shared by every
 * instance through the database), it never passes again. A pass earned with the no-JavaScript sum
 * says so, and its use takes the sum's tighter per-IP budget, as the sum itself does.
 *
 * Stateless like the sum's challenge: nothing is written until it is used.
 */

/** Card attempts after the first per captcha solved: 4 cards in all, then the captcha again. */
export const CAPTCHA_PASS_RETRIES = 3;
const TTL_SECONDS = 30 * 60;

export type CaptchaKind = "token" | "sum";
/** How a post passed its captcha: the kind of answer solved, and how many passes its render has used since. */
export type CaptchaPassed = { kind: CaptchaKind; passesUsed: number };

const sign = (form: string, key: string, body: string) => formHmac("captcha-pass", `${form}|${key}|${body}`);

/**
 * The pass for the next post of this render, or null when its captcha has been passed on
 * CAPTCHA_PASS_RETRIES times already (the visitor solves it again).
 */
export function issueCaptchaPass(form: string, key: string, passed: CaptchaPassed, now = Date.now()): string | null {
  const count = passed.passesUsed + 1;
  if (count > CAPTCHA_PASS_RETRIES) return null;
  const exp = Math.floor(now / 1000) + TTL_SECONDS;
  const body = `${exp}.${count}.${passed.kind === "sum" ? "s" : "t"}.${randomBytes(12).toString("base64url")}`;
  return `${body}.${sign(form, key, body)}`;
}

/** A pass's own checks (no database): what it says when it is this render's, unexpired and signed by us. */
export function readCaptchaPass(
  pass: string,
  form: string,
  key: string,
  now = Date.now(),
): { exp: number; nonce: string; passed: CaptchaPassed } | null {
  const parts = pass.split(".");
  if (parts.length !== 5) return null;
  const [expText, countText, kind, nonce, mac] = parts as [string, string, string, string, string];
  const exp = Number(expText);
  const count = Number(countText);
  if (!Number.isInteger(exp) || exp * 1000 < now) return null;
  if (!Number.isInteger(count) || count < 1 || count > CAPTCHA_PASS_RETRIES) return null;
  if ((kind !== "s" && kind !== "t") || !/^[A-Za-z0-9_-]{16}$/.test(nonce)) return null;
  if (!safeEqual(sign(form, key, `${expText}.${countText}.${kind}.${nonce}`), mac)) return null;
  return { exp, nonce, passed: { kind: kind === "s" ? "sum" : "token", passesUsed: count } };
}

/** Uses the pass once: what it stands for, or null when it is not this render's, has expired, or was used before. */
export async function spendCaptchaPass(
  db: DbOrTx,
  pass: string,
  form: string,
  key: string,
  now = Date.now(),
): Promise<CaptchaPassed | null> {
  const read = readCaptchaPass(pass, form, key, now);
  if (!read) return null;
  return (await spendToken(db, `pass:${read.nonce}`, new Date(read.exp * 1000))) ? read.passed : null;
}
