import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { clientIpFromNode, normaliseIp, rateLimitSubject } from "./client-ip.server";
import { isCrossOrigin, isCrossOriginHeaders } from "./origin.server";
import { isValidHost, normaliseRequestTarget } from "../../server/guards";

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
    expect(clientIpFromNode(node({}, "::ffff:192.0.2.4"), undefined)).toBe("192.0.2.4");
  });

  it("falls back to the socket's peer when the configured header is absent or not an address", () => {
    expect(clientIpFromNode(node({ "x-forwarded-for": "203.0.113.9" }), "fly-client-ip")).toBe("198.51.100.7");
    expect(clientIpFromNode(node({ "fly-client-ip": "not-an-ip" }), "fly-client-ip")).toBe("198.51.100.7");
    expect(clientIpFromNode(node({ "fly-client-ip": "" }), "fly-client-ip")).toBe("198.51.100.7");
    expect(clientIpFromNode(node({}, "") as IncomingMessage, "fly-client-ip")).toBeNull();
  });

  it("takes the last of several values: the one a proxy that appends would have added", () => {
    expect(clientIpFromNode(node({ "fly-client-ip": "203.0.113.9, 192.0.2.44" }), "fly-client-ip")).toBe("192.0.2.44");
    expect(clientIpFromNode(node({ "fly-client-ip": ["203.0.113.9", "192.0.2.45"] } as never), "fly-client-ip")).toBe(
      "192.0.2.45",
    );
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
    // A no-referrer page's own form posts Origin: null, and the browser says same-origin.
    expect(isCrossOrigin(post({ Origin: "null", "Sec-Fetch-Site": "same-origin" }))).toBe(false);
    expect(isCrossOrigin(post({ Origin: "null", "Sec-Fetch-Site": "cross-site" }))).toBe(true);
  });
});

describe("cross-origin check on the raw headers (before React Router)", () => {
  it("never throws on a Host that is not a host name, and compares it as text", () => {
    for (const host of ["a b", "example.com:99999", "[", "%", "http://x", "a".repeat(5000)]) {
      expect(() => isCrossOriginHeaders({ host, origin: "https://evil.example" })).not.toThrow();
      expect(isCrossOriginHeaders({ host, origin: "https://evil.example" })).toBe(true);
    }
  });

  it("allows the configured site, the request's own host (with the site's scheme), header-less clients", () => {
    expect(isCrossOriginHeaders({ origin: SITE })).toBe(false);
    expect(isCrossOriginHeaders({ host: "shop.example:8080", origin: "http://shop.example:8080" })).toBe(false);
    // SITE_URL is http here: an https origin for the same host is another scheme, whatever a header claims.
    expect(isCrossOriginHeaders({ host: "site.example", origin: "https://site.example" })).toBe(true);
    expect(isCrossOriginHeaders({})).toBe(false);
  });

  it("trusts neither X-Forwarded-Host nor X-Forwarded-Proto (any client can send them)", () => {
    expect(
      isCrossOrigin(
        post({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" }),
      ),
    ).toBe(true);
    const own = new Request("http://site.example/contact", {
      method: "POST",
      headers: { Host: "site.example", Origin: "https://site.example", "X-Forwarded-Proto": "https" },
    });
    expect(isCrossOrigin(own)).toBe(true);
  });
});

describe("request target and Host, before React Router", () => {
  const req = (url: string, host?: string, httpVersion = "1.1") =>
    ({ url, httpVersion, headers: host === undefined ? {} : { host } }) as unknown as IncomingMessage;

  it("accepts host names, IPv4, bracketed IPv6 and ports up to 65535", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "www.example.com",
      "example.com.",
      "192.0.2.1:80",
      "[::1]:3000",
      "[2001:db8::1]",
      "app_1:8080",
      "h:65535",
    ]) {
      expect(isValidHost(host), host).toBe(true);
    }
  });

  it("refuses what a URL parser would throw on", () => {
    for (const host of [
      "a b",
      "example.com:99999",
      "example.com:",
      "[::::]",
      "[zz]",
      "999.1.1.1",
      "a/b",
      "a@b",
      "a?b",
      "a#b",
      "a\\b",
      "-a.com",
      "x..y",
      "",
      "a".repeat(300),
    ]) {
      expect(isValidHost(host), host).toBe(false);
      expect(URL.canParse(`http://${host}/`) && isValidHost(host)).toBe(false);
    }
  });

  it("keeps the path of an absolute-form target and drops its authority", () => {
    const r = req("http://evil.example/contact?x=1", "localhost:3000");
    expect(normaliseRequestTarget(r, "site.example")).toBeUndefined();
    expect(r.url).toBe("/contact?x=1");
    expect(r.headers.host).toBe("localhost:3000");
    const bare = req("HTTPS://evil.example", "localhost");
    expect(normaliseRequestTarget(bare, "site.example")).toBeUndefined();
    expect(bare.url).toBe("/");
    const query = req("http://evil.example?q=1", "localhost");
    normaliseRequestTarget(query, "site.example");
    expect(query.url).toBe("/?q=1");
  });

  it("assumes the site's host when an HTTP/1.0 request has none; refuses an HTTP/1.1 one", () => {
    const r = req("/", undefined, "1.0");
    expect(normaliseRequestTarget(r, "site.example:8080")).toBeUndefined();
    expect(r.headers.host).toBe("site.example:8080");
    expect(normaliseRequestTarget(req("/", undefined), "site.example")).toMatch(/needs a Host/);
  });

  it("refuses a bad Host, a target that is not a path, and a path whose % does not decode; a bad query is left to the app", () => {
    expect(normaliseRequestTarget(req("/contact", "a b"), "site.example")).toMatch(/Host/);
    expect(normaliseRequestTarget(req("/contact", "example.com:99999"), "site.example")).toMatch(/Host/);
    expect(normaliseRequestTarget(req("*", "localhost"), "site.example")).toMatch(/path/);
    expect(normaliseRequestTarget(req("example.com:443", "localhost"), "site.example")).toMatch(/path/);
    expect(normaliseRequestTarget(req("/%E0%A4%A", "localhost"), "site.example")).toMatch(/%/);
    expect(normaliseRequestTarget(req("/%zz", "localhost"), "site.example")).toMatch(/%/);
    expect(normaliseRequestTarget(req("/caf%C3%A9?x=%zz", "localhost"), "site.example")).toBeUndefined();
  });
});
