import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { cacheControl } from "~/http/cache-control";

/**
 * Answers given before Express and React Router see a request (issue 15).
 * Each one works on the raw Node request, never builds a URL from what the
 * client sent, and leaves the request in a shape that React Router's Express
 * adapter can turn into a URL (it calls `new URL(…)` on the Host header and
 * the target, outside any handler of ours: a bad one became a 500).
 */

export const BAD_REQUEST_MESSAGE = "Bad request.";

/** A small plain-text answer (no echo of anything the client sent), or a dropped connection when one has begun. */
export function answerPlain(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...headers,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(message)),
    "Cache-Control": cacheControl.noStore,
  });
  res.end(message);
}

/**
 * The site answers GET, HEAD and POST (pages, forms, /api/store/*). React
 * Router logs an error for any other method and fails with a 500 on TRACE, so
 * they are answered here: OPTIONS with what is allowed, the rest with 405.
 */
export function answerOtherMethods(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return false;
  const allow = { Allow: "GET, HEAD, POST" };
  if (req.method === "OPTIONS") {
    res.writeHead(204, { ...allow, "Cache-Control": cacheControl.noStore });
    res.end();
  } else {
    answerPlain(res, 405, "This address answers GET, HEAD and POST only.", allow);
  }
  return true;
}

/**
 * A Host header as RFC 9110 §7.2 allows it: a registered name (letters,
 * digits, hyphens, dots, and the underscores of container names), an IPv4
 * address or a bracketed IPv6 literal, then an optional port within 0-65535.
 */
const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?";
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[([0-9a-f:.]{2,45})\\])(?::(\\d{1,5}))?$`, "i");

export function isValidHost(host: string): boolean {
  if (host.length > 260) return false;
  const m = HOST.exec(host);
  if (!m) return false;
  const [, ipv6, port] = m;
  if (ipv6 !== undefined && isIP(ipv6) !== 6) return false;
  if (port !== undefined && Number(port) > 65_535) return false;
  // A name of digits and dots is read as IPv4 by URL parsers (`999.1.1.1`
  // fails); React Router's adapter will parse this host, so ask the same
  // parser here, where a "no" is an answer and not a throw.
  return URL.canParse(`http://${host}/`);
}

/** `http(s)://authority` at the start of an absolute-form target (RFC 9112 §3.2.2), as a proxy would be sent. */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** True when every `%` in `text` starts a valid escape of UTF-8 (what `decodeURIComponent` accepts). */
function isDecodable(text: string): boolean {
  if (!text.includes("%")) return true;
  try {
    // The result is compared so that the bundler cannot drop the call as pure (it did).
    return typeof decodeURIComponent(text) === "string";
  } catch {
    return false;
  }
}

/**
 * Puts the request line and Host into the one shape the app expects, or says
 * why the request is refused (answer 400 with that message):
 *
 * - no Host: refused on HTTP/1.1 (RFC 9112 §3.2 requires the 400; Node's
 *   own answer is switched off so that this one carries the security
 *   headers); on HTTP/1.0, which allows it, the site's own host is assumed,
 *   so an old client still gets a page;
 * - a Host that is not a host name (`a b`, `example.com:99999`): refused;
 * - an absolute-form target (`GET http://evil.example/x HTTP/1.1`): servers
 *   must accept it; its path and query are kept and its authority dropped
 *   (this server is no proxy: it answers for its own site whatever the name);
 * - any other target that is not a path (`*`, `example.com:443`): refused;
 * - a path with a `%` that does not decode (`/%E0%A4%A`): refused here rather
 *   than deep in a router.
 */
export function normaliseRequestTarget(req: IncomingMessage, defaultHost: string): string | undefined {
  const host = req.headers.host;
  if (host === undefined || host === "") {
    if (req.httpVersion !== "1.0" && host === undefined) return "An HTTP/1.1 request needs a Host header.";
    req.headers.host = defaultHost;
  } else if (!isValidHost(host)) return "The Host header is not a valid host name.";

  let target = req.url ?? "";
  if (!target.startsWith("/")) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (!absolute) return "The request target must be a path.";
    target = target.slice(absolute[0].length);
    if (target.startsWith("#")) target = "";
    if (!target.startsWith("/")) target = `/${target}`;
    req.url = target;
  }
  const end = target.search(/[?#]/);
  if (!isDecodable(end === -1 ? target : target.slice(0, end)))
    return "The address is not valid (a % that does not decode).";
  return undefined;
}

/** Fills in whichever of `headers` the response has not set itself (just before its headers go out). */
export function fillMissingHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!res.hasHeader(name)) res.setHeader(name, value);
  }
}
