import { createHash, randomBytes, randomInt } from "node:crypto";

/**
 * What a visitor holds of a booking (issue 29, DECISIONS 32): a short reference to read out on
 * the phone, and the manage link's token. Neither says how many bookings there are: both are
 * random. The reference is no key to anything (the token is), so 30 bits keep it short; the
 * token is 256 bits and stored only as its SHA-256.
 */

/** Crockford's base 32 without the letters read as digits (I, L, O) or as a rude word (U). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** "DV-7K3M-Q9". */
export function newBookingReference(): string {
  const pick = (n: number) => Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `DV-${pick(4)}-${pick(2)}`;
}

export const BOOKING_REFERENCE_PATTERN = /^DV-[0-9A-Z]{4}-[0-9A-Z]{2}$/;

/** A new manage-link token (base64url, 43 characters) and the hash stored in its place. */
export function newManageToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: manageTokenHash(token) };
}

/** The stored form of a token. */
export function manageTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export const isManageToken = (value: string | undefined): value is string =>
  typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);

export const managePath = (token: string) => `/booking/${token}`;
