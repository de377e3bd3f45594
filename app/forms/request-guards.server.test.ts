import { describe, expect, it } from "vitest";
import { getClientIPAddress } from "./client-ip.server";
import { honeypotInputProps, isHoneypotTripped } from "./honeypot.server";
import { isCrossOrigin } from "./origin.server";

const SITE = "http://localhost:3000";

function post(headers: Record<string, string>) {
  return new Request(`${SITE}/contact`, { method: "POST", headers });
}

describe("client IP from the request headers", () => {
  it("follows remix-utils' header order and skips what is not an IP", () => {
    expect(getClientIPAddress(post({ "X-Forwarded-For": "unknown, 203.0.113.9, 10.0.0.1" }))).toBe("203.0.113.9");
    expect(getClientIPAddress(post({ "Fly-Client-IP": "2001:db8::7" }))).toBe("2001:db8::7");
    expect(getClientIPAddress(post({ Forwarded: 'for="[2001:db8::1]:4711";proto=https' }))).toBe("2001:db8::1");
    expect(getClientIPAddress(post({ "X-Client-IP": "198.51.100.2", "X-Forwarded-For": "203.0.113.9" }))).toBe("198.51.100.2");
    expect(getClientIPAddress(post({}))).toBeNull();
  });
});

describe("cross-origin check", () => {
  it("allows our own origin, same-origin fetches and header-less API clients", () => {
    expect(isCrossOrigin(post({ Origin: SITE, "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossOrigin(post({ "Sec-Fetch-Site": "none" }))).toBe(false);
    expect(isCrossOrigin(post({}))).toBe(false);
  });

  it("refuses another site", () => {
    expect(isCrossOrigin(post({ Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossOrigin(post({ Origin: SITE, "Sec-Fetch-Site": "cross-site" }))).toBe(true);
    expect(isCrossOrigin(post({ "Sec-Fetch-Site": "same-site" }))).toBe(true);
    expect(isCrossOrigin(post({ Origin: "null" }))).toBe(true);
  });
});

describe("honeypot", () => {
  const fields = (extra: Record<string, string>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(extra)) fd.append(k, v);
    return fd;
  };
  const props = honeypotInputProps(Date.now() - 1000);

  it("passes an empty trap with a valid timestamp, and requests without the fields (API clients)", () => {
    expect(isHoneypotTripped(fields({ name__confirm: "", from__confirm: props.encryptedValidFrom }))).toBe(false);
    expect(isHoneypotTripped(fields({ first_name: "Ada" }))).toBe(false);
  });

  it("trips on a filled trap, a forged or future timestamp", () => {
    expect(isHoneypotTripped(fields({ name__confirm: "bot", from__confirm: props.encryptedValidFrom }))).toBe(true);
    expect(isHoneypotTripped(fields({ name__confirm: "", from__confirm: "forged" }))).toBe(true);
    expect(isHoneypotTripped(fields({ from__confirm: props.encryptedValidFrom }))).toBe(true);
    const future = honeypotInputProps(Date.now() + 60_000);
    expect(isHoneypotTripped(fields({ name__confirm: "", from__confirm: future.encryptedValidFrom }))).toBe(true);
  });
});
