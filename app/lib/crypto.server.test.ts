import { describe, expect, it } from "vitest";
import { decryptText, encryptText, formHmac } from "./crypto.server";

describe("field encryption (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time, and never shows the plain text", () => {
    const a = encryptText("123-45-6789");
    const b = encryptText("123-45-6789");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("6789");
    expect(decryptText(a)).toBe("123-45-6789");
  });

  it("refuses a tampered value", () => {
    const parts = encryptText("123-45-6789").split(".");
    const ct = Buffer.from(parts[4]!, "base64url");
    ct[0] = ct[0]! ^ 1;
    parts[4] = ct.toString("base64url");
    expect(() => decryptText(parts.join("."))).toThrow();
  });

  it("derives a different HMAC per purpose", () => {
    expect(formHmac("a", "x")).not.toBe(formHmac("b", "x"));
    expect(formHmac("a", "x")).toBe(formHmac("a", "x"));
  });
});
