import { isLinkToken, linkTokenHash, newLinkToken, randomReference } from "~/lib/link-token.server";

/**
 * What a visitor holds of a booking (issue 29, DECISIONS 32): a short reference to read out on
 * the phone, and the manage link's token, made as every such link is (~/lib/link-token.server.ts:
 * random, the token 256 bits and stored only as its SHA-256).
 */

/** "DV-7K3M-Q9". */
export const newBookingReference = (): string => randomReference("DV");

export const BOOKING_REFERENCE_PATTERN = /^DV-[0-9A-Z]{4}-[0-9A-Z]{2}$/;

/** A new manage-link token (base64url, 43 characters) and the hash stored in its place. */
export const newManageToken = newLinkToken;

/** The stored form of a token. */
export const manageTokenHash = linkTokenHash;

export const isManageToken = isLinkToken;

export const managePath = (token: string) => `/booking/${token}`;
