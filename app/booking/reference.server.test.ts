import { describe, expect, it } from "vitest";
import {
  BOOKING_REFERENCE_PATTERN,
  isManageToken,
  manageTokenHash,
  newBookingReference,
  newManageToken,
} from "./reference.server";

describe("booking references and manage tokens", () => {
  it("a reference reads DV-XXXX-XX in unambiguous characters, and a thousand of them do not repeat", () => {
    const refs = Array.from({ length: 1000 }, newBookingReference);
    for (const ref of refs) expect(ref).toMatch(BOOKING_REFERENCE_PATTERN);
    expect(refs.join("")).not.toMatch(/[ILOU]/);
    expect(new Set(refs).size).toBe(1000);
  });

  it("a token is 256 random bits in base64url, stored as its SHA-256; anything else is no token", () => {
    const { token, hash } = newManageToken();
    expect(isManageToken(token)).toBe(true);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(hash).toBe(manageTokenHash(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token);
    for (const bad of ["", "x", token.slice(1), `${token}=`, "../../etc/passwd".padEnd(43, "a")]) {
      expect(isManageToken(bad)).toBe(false);
    }
  });
});
