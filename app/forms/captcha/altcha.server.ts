import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { DbOrTx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { secret } from "~/lib/secrets.server";
import { spendToken } from "./spent.server";

/**
 * Self-hosted proof-of-work captcha (ALTCHA v2 protocol, no third party).
 * The challenge is HMAC-signed and expires; the widget solves it in a Web
 * Worker and submits base64(JSON { challenge, solution }). Verification is
 * stateless except for the spent-token record that stops replays.
 */
const ALGORITHM = "PBKDF2/SHA-256";
const TTL_SECONDS = 10 * 60;

export async function createAltchaChallenge(now = Date.now()): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: env().ALTCHA_COST,
    deriveKey,
    hmacSignatureSecret: secret("ALTCHA_HMAC_KEY"),
    expiresAt: Math.floor(now / 1000) + TTL_SECONDS,
  });
}

type Payload = { challenge: Challenge; solution: Solution };

function decodePayload(token: string): Payload | null {
  try {
    const value = JSON.parse(Buffer.from(token, "base64").toString("utf8")) as Partial<Payload> | null;
    if (!value || typeof value !== "object" || !value.challenge?.parameters || !value.solution) return null;
    return value as Payload;
  } catch {
    return null;
  }
}

export async function verifyAltchaPayload(db: DbOrTx, token: string): Promise<boolean> {
  const payload = decodePayload(token);
  if (!payload || payload.challenge.parameters.algorithm !== ALGORITHM) return false;
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: secret("ALTCHA_HMAC_KEY"),
  }).catch(() => null);
  if (!result?.verified || !payload.challenge.signature) return false;
  const exp = payload.challenge.parameters.expiresAt ?? Math.floor(Date.now() / 1000) + TTL_SECONDS;
  return spendToken(db, `altcha:${payload.challenge.signature}`, new Date(exp * 1000));
}
