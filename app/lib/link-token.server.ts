import { createHash, randomBytes, randomInt } from "node:crypto";

/**
 * What a visitor holds of something they paid for, without an account (DECISIONS 32): a short
 * reference to read out on the phone, and a link's token. Neither says how many there are: both
 * are random. A reference is no key to anything (the token is), so 30 bits keep it short; a
 * token is 256 bits and stored only as its SHA-256 (a lookup by the hash is a plain unique-index
 * read; a slow hash buys nothing against 256 random bits). The booking's manage link
 * (app/booking/reference.server.ts) and the order's page (app/shop/checkout/orders.server.ts)
 * both use these.
 */

/** Crockford's base 32 without the letters read as digits (I, L, O) or as a rude word (U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** `${prefix}-XXXX-XX` ("DV-7K3M-Q9"): 30 random bits. */
export function randomReference(prefix: string): string {
  const pick = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${prefix}-${pick(4)}-${pick(2)}`;
}

/** A new link token (32 random bytes, base64url: 43 characters) and the hash stored in its place. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: linkTokenHash(token) };
}

/** The stored form of a token. */
export function linkTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a path segment can be a token at all (checked before any database read). */
export const isLinkToken = (value: string | undefined): value is string =>
  typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
