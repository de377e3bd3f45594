import { randomBytes, randomInt } from "node:crypto";
import type { DbOrTx } from "@db/client.server";
import { formHmac, safeEqual } from "~/lib/crypto.server";
import { spendToken } from "./spent.server";
import type { NoJsChallenge } from "./types";

/**
 * The no-JavaScript captcha: "What is A + B?" (A and B from 1 to 9). The token
 * carries an expiry, a nonce and an HMAC over the expected answer, so the
 * server keeps nothing per challenge (stateless). A used nonce is recorded
 * until the expiry so a replay fails.
 */
const TTL_SECONDS = 30 * 60;

export function createSumChallenge(now = Date.now()): NoJsChallenge {
  const a = randomInt(1, 10);
  const b = randomInt(1, 10);
  const exp = Math.floor(now / 1000) + TTL_SECONDS;
  const nonce = randomBytes(12).toString("base64url");
  return { question: `What is ${a} + ${b}?`, token: `${exp}.${nonce}.${sign(a + b, exp, nonce)}` };
}

function sign(answer: number, exp: number, nonce: string): string {
  return formHmac("nojs-sum", `${answer}|${exp}|${nonce}`);
}

/** The answer's check alone (no database): its nonce when right, null when wrong or expired. */
export function checkSumAnswer(answer: string, token: string, now = Date.now()): { nonce: string; exp: number } | null {
  const [expText, nonce, mac] = token.split(".");
  const exp = Number(expText);
  const value = answer.trim();
  if (!nonce || !mac || !Number.isInteger(exp) || !/^\d{1,2}$/.test(value)) return null;
  if (exp * 1000 < now) return null;
  return safeEqual(sign(Number(value), exp, nonce), mac) ? { nonce, exp } : null;
}

export async function verifySumAnswer(db: DbOrTx, answer: string, token: string, now = Date.now()): Promise<boolean> {
  const checked = checkSumAnswer(answer, token, now);
  return checked ? spendToken(db, `sum:${checked.nonce}`, new Date(checked.exp * 1000)) : false;
}
