import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { secret } from "~/lib/secrets.server";

/**
 * The honeypot of every form, the server half of remix-utils' honeypot
 * (`HoneypotInputs` from remix-utils/honeypot/react renders the fields).
 *
 * remix-utils/honeypot/server itself cannot load here: it imports the optional
 * peer `@oslojs/crypto`, which is not installed. This is the same contract —
 * `name__confirm` must arrive empty, `from__confirm` is an encrypted
 * timestamp that must decrypt and not lie in the future — with node:crypto
 * and a key derived from the form secret, so every instance agrees.
 * A request with neither field (an API client) is not checked, as in remix-utils.
 */
export const HONEYPOT_NAME_FIELD = "name__confirm";
export const HONEYPOT_VALID_FROM_FIELD = "from__confirm";

export type HoneypotInputProps = {
  nameFieldName: string;
  validFromFieldName: string;
  encryptedValidFrom: string;
};

function key(): Buffer {
  return createHash("sha256").update(`honeypot:${secret("ALTCHA_HMAC_KEY")}`).digest();
}

export function honeypotInputProps(now = Date.now()): HoneypotInputProps {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(String(now), "utf8"), cipher.final()]);
  return {
    nameFieldName: HONEYPOT_NAME_FIELD,
    validFromFieldName: HONEYPOT_VALID_FROM_FIELD,
    encryptedValidFrom: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url"),
  };
}

function decryptValidFrom(value: string): number | null {
  try {
    const raw = Buffer.from(value, "base64url");
    if (raw.length < 29) return null;
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    const time = Number(text);
    return Number.isSafeInteger(time) && time > 0 ? time : null;
  } catch {
    return null;
  }
}

/** True when the submission looks automated (the trap was filled or forged). */
export function isHoneypotTripped(fields: FormData, now = Date.now()): boolean {
  const hasName = fields.has(HONEYPOT_NAME_FIELD);
  const hasValidFrom = fields.has(HONEYPOT_VALID_FROM_FIELD);
  if (!hasName && !hasValidFrom) return false;
  if (!hasName || fields.get(HONEYPOT_NAME_FIELD) !== "") return true;
  const validFrom = fields.get(HONEYPOT_VALID_FROM_FIELD);
  if (typeof validFrom !== "string" || !validFrom) return true;
  const time = decryptValidFrom(validFrom);
  return time === null || time > now;
}
