import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { secret } from "./secrets.server";

/**
 * Field-level encryption at rest (DECISIONS 17): AES-256-GCM with the key from
 * DATA_ENCRYPTION_KEY (64 hex characters or base64 of 32 bytes), a 16-byte
 * tag (shorter tags are refused), and associated data that binds each value to
 * where it is stored: its table, column and a per-row random id. A ciphertext
 * copied into another row or column does not decrypt.
 *
 *   v2.<key id>.<iv>.<tag>.<ciphertext>   (base64url; current)
 *   v1.<key id>.<iv>.<tag>.<ciphertext>   (earlier, no associated data; still read)
 *
 * The key id lets a later key rotation tell which key wrote a value.
 */
const TAG_BYTES = 16;

/** Where a value lives: bound into its ciphertext. */
export type CipherPlace = { table: string; column: string; row: string };

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

function associatedData(place: CipherPlace): Buffer {
  if (!place.table || !place.column || !place.row)
    throw new Error("An encrypted value needs its table, column and row");
  return Buffer.from(JSON.stringify([place.table, place.column, place.row]), "utf8");
}

export function encryptText(plain: string, place: CipherPlace): string {
  const key = dataKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(place));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v2", keyId(key), iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(
    ".",
  );
}

/** Decrypts a stored value; `place` must be where it is stored (v1 values predate the binding). */
export function decryptText(stored: string, place: CipherPlace): string {
  const [version, , iv, tag, ciphertext, extra] = stored.split(".");
  if ((version !== "v1" && version !== "v2") || !iv || !tag || ciphertext === undefined || extra !== undefined) {
    throw new Error("Unknown encrypted value format");
  }
  const tagBytes = Buffer.from(tag, "base64url");
  if (tagBytes.length !== TAG_BYTES) throw new Error("Encrypted value has a truncated authentication tag");
  const decipher = createDecipheriv("aes-256-gcm", dataKey(), Buffer.from(iv, "base64url"), {
    authTagLength: TAG_BYTES,
  });
  if (version === "v2") decipher.setAAD(associatedData(place));
  decipher.setAuthTag(tagBytes);
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
