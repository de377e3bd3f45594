import { expect, test } from "../support/test";
import { E2E_PORT } from "../support/server";
import { chunked, rawRequest, repeated, type RawAnswer, type RawRequest } from "../support/raw-http";
import { freshIp } from "./form-support";

/**
 * A hostile client, by hand over raw sockets (node:net: no HTTP client would
 * send these), against the production build (issue 15). After each request
 * the server still answers /healthz 200, its answer is no 5xx (a 503 only
 * for an outage, with Retry-After), and no answer is larger than 100 KB (an
 * oversized body is never echoed back into a page).
 */

const port = E2E_PORT;
const MAX_ANSWER_BYTES = 100 * 1024;
const MB = 1024 * 1024;

type Case = {
  name: string;
  request: () => Omit<RawRequest, "port">;
  /** What the answer must be, besides the rules every answer follows. */
  expectStatus?: number | ((status: number) => boolean);
  /** More to check about this answer. */
  check?: (answer: RawAnswer) => void;
};

/** Headers of a form post from a visitor of its own (the rate limit is per client IP). */
function formHead(method: string, target: string, extra: string[] = []): string {
  return [
    `${method} ${target} HTTP/1.1`,
    "Host: localhost",
    `Fly-Client-IP: ${freshIp()}`,
    "Connection: close",
    ...extra,
  ].join("\r\n");
}

const is4xx = (status: number) => status >= 400 && status < 500;

const cases: Case[] = [
  // ── The Host header and the request target ────────────────────────
  {
    name: "POST /contact with Host: a b",
    request: () => ({
      head: [
        "POST /contact HTTP/1.1",
        "Host: a b",
        "Origin: http://a b",
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 13",
        "Connection: close",
      ].join("\r\n"),
      body: ["first_name=Ad"],
    }),
    expectStatus: 400,
  },
  {
    name: "POST /contact with Host: example.com:99999",
    request: () => ({
      head: [
        "POST /contact HTTP/1.1",
        "Host: example.com:99999",
        "Origin: http://example.com:99999",
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 13",
        "Connection: close",
      ].join("\r\n"),
      body: ["first_name=Ad"],
    }),
    expectStatus: 400,
  },
  {
    name: "GET / with Host: 999.1.1.1 (digits a URL parser reads as a bad IPv4)",
    request: () => ({ head: "GET / HTTP/1.1\r\nHost: 999.1.1.1\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "GET / with a bracketed Host that is no IPv6 address",
    request: () => ({ head: "GET / HTTP/1.1\r\nHost: [::::]\r\nConnection: close" }),
    expectStatus: 400,
  },
  { name: "GET / over HTTP/1.0 without a Host", request: () => ({ head: "GET / HTTP/1.0" }), expectStatus: 200 },
  {
    name: "GET / over HTTP/1.1 without a Host",
    request: () => ({ head: "GET / HTTP/1.1\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "absolute-form target GET http://evil.example/",
    request: () => ({ head: "GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 200,
  },
  {
    name: "absolute-form POST from another site is still refused",
    request: () => ({
      head: formHead("POST", "http://evil.example/contact", [
        "Origin: http://evil.example",
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 13",
      ]),
      body: ["first_name=Ad"],
    }),
    expectStatus: 403,
  },
  {
    name: "asterisk-form target GET *",
    request: () => ({ head: "GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "invalid percent-encoding in the path GET /%E0%A4%A",
    request: () => ({ head: "GET /%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "invalid percent-encoding in a data request GET /%E0%A4%A.data",
    request: () => ({ head: "GET /%E0%A4%A.data HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "invalid percent-encoding in the query GET /contact?x=%zz",
    request: () => ({ head: "GET /contact?x=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 200,
  },
  {
    name: "raw UTF-8 bytes in the path",
    request: () => ({ head: "GET /caf\u00c3\u00a9 HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "a header of 64 KB",
    request: () => ({
      head: `GET / HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${"a".repeat(64 * 1024)}\r\nConnection: close`,
    }),
    expectStatus: 431,
  },
  {
    name: "a query string of 15 KB",
    request: () => ({ head: `GET /contact?${"q=1&".repeat(3800)} HTTP/1.1\r\nHost: localhost\r\nConnection: close` }),
    expectStatus: (s) => s === 200 || is4xx(s),
  },

  // ── Bodies ────────────────────────────────────────────────────────
  {
    name: "a 3 MB chunked urlencoded body to /contact",
    request: () => ({
      head: formHead("POST", "/contact", [
        "Content-Type: application/x-www-form-urlencoded",
        "Transfer-Encoding: chunked",
      ]),
      body: chunked([Buffer.from("first_name=Ada&details="), ...repeated("a", 3 * MB)]),
    }),
    expectStatus: is4xx,
  },
  {
    name: "a chunked 50 MB multipart body to /request-service?type=commercial",
    request: () => {
      const boundary = "----hostile50mb";
      return {
        head: formHead("POST", "/request-service?type=commercial", [
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          "Transfer-Encoding: chunked",
        ]),
        body: chunked([
          `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n`,
          `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="door.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
          ...repeated("\u0000", 50 * MB),
          `\r\n--${boundary}--\r\n`,
        ]),
        timeoutMs: 60_000,
      };
    },
    // No honeypot fields: since issue 28 the honeypot is judged when the first file part arrives,
    // before any byte of it is written, so this bot's post is answered as the lead forms answer
    // bots (DECISIONS 27: as a success, nothing stored) instead of being read up to its limit (413).
    expectStatus: (s) => s === 200 || is4xx(s),
  },
  {
    name: "100,000 tiny urlencoded fields to /contact",
    request: () => {
      const body = Array.from({ length: 100_000 }, (_, i) => `f${i}=1`).join("&");
      return {
        head: formHead("POST", "/contact", [
          "Content-Type: application/x-www-form-urlencoded",
          `Content-Length: ${Buffer.byteLength(body)}`,
        ]),
        body: [body],
      };
    },
    expectStatus: is4xx,
  },
  {
    name: "JSON nested 10,000 deep to /api/store/contact/submit",
    request: () => {
      const body = `{"first_name":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
      return {
        head: formHead("POST", "/api/store/contact/submit", [
          "Content-Type: application/json",
          `Content-Length: ${body.length}`,
        ]),
        body: [body],
      };
    },
    expectStatus: 400,
  },
  {
    name: "a declared 10 GB body to /contact (Expect: 100-continue, nothing sent)",
    request: () => ({
      head: formHead("POST", "/contact", [
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 10737418240",
        "Expect: 100-continue",
      ]),
      timeoutMs: 15_000,
    }),
    expectStatus: is4xx,
  },

  // ── The HTTP framing itself ───────────────────────────────────────
  {
    name: "Content-Length and Transfer-Encoding together (request smuggling)",
    request: () => ({
      head: formHead("POST", "/contact", [
        "Content-Type: application/x-www-form-urlencoded",
        "Content-Length: 4",
        "Transfer-Encoding: chunked",
      ]),
      body: ["0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    }),
    expectStatus: 400,
  },
  {
    name: "two different Content-Length headers",
    request: () => ({
      head: formHead("POST", "/contact", ["Content-Length: 3", "Content-Length: 5"]),
      body: ["a=bcd"],
    }),
    expectStatus: 400,
  },
  {
    name: "a malformed chunk size",
    request: () => ({
      head: formHead("POST", "/contact", [
        "Content-Type: application/x-www-form-urlencoded",
        "Transfer-Encoding: chunked",
      ]),
      body: ["zz\r\nfirst_name=x\r\n0\r\n\r\n"],
    }),
    expectStatus: 400,
  },
  {
    name: "a header name with a space",
    request: () => ({ head: "GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\nConnection: close" }),
    expectStatus: 400,
  },
  {
    name: "the HTTP/2 connection preface on an HTTP/1 port",
    request: () => ({ head: "PRI * HTTP/2.0\r\n\r\nSM" }),
    expectStatus: 400,
  },
  {
    name: "garbage pipelined behind a good request",
    request: () => ({ head: "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGARBAGE" }),
    expectStatus: 200,
    // The good request's answer goes out whole, then the 400, then the connection closes.
    check: (answer) => expect(answer.body).toMatch(/\{"db":"ok"\}\r\n0\r\n\r\nHTTP\/1\.1 400 Bad Request\r\n/),
  },
  {
    name: "TRACE",
    request: () => ({ head: "TRACE / HTTP/1.1\r\nHost: localhost\r\nConnection: close" }),
    expectStatus: 405,
  },
  {
    name: "CONNECT",
    request: () => ({ head: "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443" }),
    expectStatus: 405,
  },
  {
    name: "a Range of 500 overlapping parts on a static file",
    request: () => ({
      head: `GET /images/logo.svg HTTP/1.1\r\nHost: localhost\r\nRange: bytes=${Array.from({ length: 500 }, () => "0-").join(",")}\r\nConnection: close`,
    }),
    expectStatus: (s) => s === 200 || s === 206 || s === 416,
  },
  {
    name: "a Range whose end comes before its start, on a static file",
    request: () => ({
      head: "GET /images/logo.svg HTTP/1.1\r\nHost: localhost\r\nRange: bytes=50-10\r\nConnection: close",
    }),
    // Ignored (RFC 9110 §14.2): the whole file.
    expectStatus: 200,
  },
  {
    name: "a suffix Range on a static file",
    request: () => ({
      head: "GET /images/logo.svg HTTP/1.1\r\nHost: localhost\r\nRange: bytes=-20\r\nConnection: close",
    }),
    expectStatus: 200,
  },
  {
    name: "a Range of the file's second half",
    request: () => ({
      head: "GET /images/logo.svg HTTP/1.1\r\nHost: localhost\r\nRange: bytes=20-\r\nConnection: close",
    }),
    expectStatus: 206,
    check: (answer) => expect(answer.headers["content-range"]).toMatch(/^bytes 20-\d+\/\d+$/),
  },
];

async function healthz(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return res.status;
}

function describeAnswer(a: RawAnswer): string {
  return `status ${a.status}, ${a.bytes} bytes, sent ${a.bodyBytesSent} body bytes${a.error ? `, ${a.error}` : ""}: ${a.body.slice(0, 200)}`;
}

for (const c of cases) {
  test(`hostile: ${c.name}: answered without a 5xx, small, and the server stays up`, async () => {
    test.setTimeout(90_000);
    const answer = await rawRequest({ port, ...c.request() });
    const what = describeAnswer(answer);
    expect(answer.status, what).toBeGreaterThan(0);
    if (c.expectStatus !== undefined) {
      if (typeof c.expectStatus === "number") expect(answer.status, what).toBe(c.expectStatus);
      else expect(c.expectStatus(answer.status), what).toBe(true);
    }
    c.check?.(answer);
    if (answer.status >= 500) {
      expect(answer.status, what).toBe(503);
      expect(answer.headers["retry-after"], what).toBeTruthy();
    }
    expect(answer.bytes, what).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    // Whatever the server chose to say, it says it with the security headers.
    if (answer.status >= 400) expect(answer.headers["x-content-type-options"], what).toBe("nosniff");
    expect(await healthz()).toBe(200);
  });
}
