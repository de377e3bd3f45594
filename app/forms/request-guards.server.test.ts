import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { clientIpFromNode, normaliseIp, rateLimitSubject } from "./client-ip.server";
import { honeypotInputProps, isHoneypotTripped } from "./honeypot.server";
import { isCrossOrigin } from "./origin.server";

const SITE = "http://localhost:3000";

function post(headers: Record<string, string>) {
  return new Request(`${SITE}/contact`, { method: "POST", headers });
}

describe("client IP from one configured source", () => {
  const node = (headers: Record<string, string>, remoteAddress = "198.51.100.7") =>
    ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

  it("reads only the configured header, or the socket's peer when none is configured", () => {
    const forged = { "x-forwarded-for": "203.0.113.9", "x-client-ip": "203.0.113.10", "fly-client-ip": "2001:db8::7" };
    expect(clientIpFromNode(node(forged), undefined)).toBe("198.51.100.7");
    expect(clientIpFromNode(node(forged), "fly-client-ip")).toBe("2001:db8::7");
    expect(clientIpFromNode(node({ "x-forwarded-for": "203.0.113.9" }), "fly-client-ip")).toBeNull();
    expect(clientIpFromNode(node({}, "::ffff:192.0.2.4"), undefined)).toBe("192.0.2.4");
  });

  it("drops zone ids and refuses what is not an address", () => {
    expect(normaliseIp("fe80::1%eth0")).toBe("fe80::1");
    expect(normaliseIp("not-an-ip")).toBeNull();
    expect(normaliseIp("")).toBeNull();
  });

  it("buckets IPv6 by its /64 and keeps IPv4 whole", () => {
    expect(rateLimitSubject("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(rateLimitSubject("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(rateLimitSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(rateLimitSubject("192.0.2.4")).toBe("192.0.2.4");
    expect(rateLimitSubject(null)).toBe("unknown");
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
