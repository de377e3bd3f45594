import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { secret } from "./secrets.server";

/**
 * Field-level encryption at rest (DECISIONS 17): AES-256-GCM with the key from
 * DATA_ENCRYPTION_KEY (64 hex characters or base64 of 32 bytes). The stored
 * text is `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url), so a later key
 * rotation can tell which key wrote a value.
 */
function dataKey(): Buffer {
  const raw = secret("DATA_ENCRYPTION_KEY").trim();
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) {
    throw new Error("DATA_ENCRYPTION_KEY must be 32 bytes (64 hex characters or base64)");
  }
  return key;
}

function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 8);
}

export function encryptText(plain: string): string {
  const key = dataKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", keyId(key), iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptText(stored: string): string {
  const [version, , iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("Unknown encrypted value format");
  const decipher = createDecipheriv("aes-256-gcm", dataKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** HMAC-SHA256 (base64url) with a key derived per purpose from ALTCHA_HMAC_KEY. */
export function formHmac(purpose: string, message: string): string {
  const key = createHmac("sha256", secret("ALTCHA_HMAC_KEY")).update(`purpose:${purpose}`).digest();
  return createHmac("sha256", key).update(message).digest("base64url");
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
