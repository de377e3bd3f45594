import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptText, encryptText, formHmac } from "./crypto.server";
import { secret } from "./secrets.server";

const here = { table: "employment_applications", column: "ssn_encrypted", row: "0b6f5f8e-8f43-4a57-9a5c-8d1f2e3a4b5c" };
const otherRow = { ...here, row: "9d1c2b3a-0000-4000-8000-000000000001" };

describe("field encryption (AES-256-GCM, bound to its place)", () => {
  it("round-trips, with a fresh IV each time, and never shows the plain text", () => {
    const a = encryptText("123-45-6789", here);
    const b = encryptText("123-45-6789", here);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("6789");
    expect(decryptText(a, here)).toBe("123-45-6789");
  });

  it("refuses a tampered value", () => {
    const parts = encryptText("123-45-6789", here).split(".");
    const ct = Buffer.from(parts[4]!, "base64url");
    ct[0] = ct[0]! ^ 1;
    parts[4] = ct.toString("base64url");
    expect(() => decryptText(parts.join("."), here)).toThrow();
  });

  it("refuses a value moved to another row or column", () => {
    const value = encryptText("123-45-6789", here);
    expect(() => decryptText(value, otherRow)).toThrow();
    expect(() => decryptText(value, { ...here, column: "desired_salary" })).toThrow();
    expect(() => decryptText(value, { ...here, table: "contact_submissions" })).toThrow();
  });

  it("refuses a truncated authentication tag (GCM would otherwise accept 4 bytes)", () => {
    const parts = encryptText("123-45-6789", here).split(".");
    for (const bytes of [4, 8, 12, 15]) {
      const shortTag = Buffer.from(parts[3]!, "base64url").subarray(0, bytes).toString("base64url");
      expect(() => decryptText([...parts.slice(0, 3), shortTag, parts[4]].join("."), here)).toThrow(/truncated/);
    }
  });

  it("still reads values written in the earlier format (v1, no associated data)", () => {
    const raw = secret("DATA_ENCRYPTION_KEY");
    const key = Buffer.from(raw, "hex");
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const ct = Buffer.concat([cipher.update("987-65-4321", "utf8"), cipher.final()]);
    const id = createHash("sha256").update(key).digest("base64url").slice(0, 8);
    const v1 = [
      "v1",
      id,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      ct.toString("base64url"),
    ].join(".");
    expect(decryptText(v1, here)).toBe("987-65-4321");
  });

  it("derives a different HMAC per purpose", () => {
    expect(formHmac("a", "x")).not.toBe(formHmac("b", "x"));
    expect(formHmac("a", "x")).toBe(formHmac("a", "x"));
  });
});
