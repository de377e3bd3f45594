import { describe, expect, it } from "vitest";
import { CAPTCHA_PASS_RETRIES, issueCaptchaPass, readCaptchaPass } from "./pass.server";

const KEY = "0123456789abcdef0123456789abcdef";
const NOW = Date.UTC(2026, 2, 15, 16);

describe("a refused charge's captcha pass", () => {
  it("is this render's: its form and key, signed; the kind of captcha solved and how many passes were used", () => {
    const pass = issueCaptchaPass("invoice", KEY, { kind: "token", passesUsed: 0 }, NOW)!;
    expect(readCaptchaPass(pass, "invoice", KEY, NOW)?.passed).toEqual({ kind: "token", passesUsed: 1 });
    expect(readCaptchaPass(pass, "checkout", KEY, NOW)).toBeNull();
    expect(readCaptchaPass(pass, "invoice", `${KEY.slice(1)}0`, NOW)).toBeNull();
    const sum = issueCaptchaPass("invoice", KEY, { kind: "sum", passesUsed: 1 }, NOW)!;
    expect(readCaptchaPass(sum, "invoice", KEY, NOW)?.passed).toEqual({ kind: "sum", passesUsed: 2 });
  });

  it("expires after 30 minutes", () => {
    const pass = issueCaptchaPass("invoice", KEY, { kind: "token", passesUsed: 0 }, NOW)!;
    expect(readCaptchaPass(pass, "invoice", KEY, NOW + 29 * 60_000)).not.toBeNull();
    expect(readCaptchaPass(pass, "invoice", KEY, NOW + 31 * 60_000)).toBeNull();
  });

  it(`counts: after ${CAPTCHA_PASS_RETRIES} passes none is issued, and a count beyond cannot be forged`, () => {
    expect(
      issueCaptchaPass("invoice", KEY, { kind: "token", passesUsed: CAPTCHA_PASS_RETRIES - 1 }, NOW),
    ).not.toBeNull();
    expect(issueCaptchaPass("invoice", KEY, { kind: "token", passesUsed: CAPTCHA_PASS_RETRIES }, NOW)).toBeNull();
    const pass = issueCaptchaPass("invoice", KEY, { kind: "token", passesUsed: 2 }, NOW)!;
    const [exp, , kind, nonce, mac] = pass.split(".");
    expect(readCaptchaPass([exp, "1", kind, nonce, mac].join("."), "invoice", KEY, NOW)).toBeNull(); // the count is signed
    expect(readCaptchaPass([exp, "3", "s", nonce, mac].join("."), "invoice", KEY, NOW)).toBeNull(); // so is the kind
  });

  it("anything else is not a pass", () => {
    for (const bad of ["", "x", "1.2.3.4.5", `${Math.floor(NOW / 1000) + 60}.1.t.AAAAAAAAAAAAAAAA.sig`])
      expect(readCaptchaPass(bad, "invoice", KEY, NOW), bad).toBeNull();
  });
});
