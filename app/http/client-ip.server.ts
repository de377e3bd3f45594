import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { createContext, type RouterContextProvider } from "react-router";

/**
 * The visitor's IP, from one configured source (DECISIONS 18, issue 15):
 * the header named by CLIENT_IP_HEADER, which the platform's proxy sets and
 * overwrites (fly.io: Fly-Client-IP), or, when it is unset or a request
 * lacks it, the TCP peer's address. No other header is read: X-Forwarded-For,
 * X-Client-IP and the like are whatever the client typed.
 *
 * The server works it out once per request (`clientIpFromNode`) and hands it
 * to the app in the load context; the form pipeline reads it from there.
 */
export const clientIpContext = createContext<string | null>(null);

/** A canonical address, or null: zone ids (`fe80::1%eth0`) and IPv4-mapped IPv6 are normalised. */
export function normaliseIp(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let ip = raw.trim();
  if (ip.startsWith("[") && ip.includes("]")) ip = ip.slice(1, ip.indexOf("]"));
  const zone = ip.indexOf("%");
  if (zone !== -1) ip = ip.slice(0, zone);
  if (ip.length > 45) return null;
  const kind = isIP(ip);
  if (kind === 0) return null;
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
    return ip.toLowerCase();
  }
  return ip;
}

/**
 * The client IP of a Node request: the configured header's value, or the
 * socket's peer when no header is configured, or when the request does not
 * carry a usable one (a request that reached the machine without passing the
 * proxy, e.g. a health check on the private network: keying all of those as
 * "unknown" would put them in one shared bucket).
 *
 * When the header holds several values (a client sent its own and the proxy
 * added one: Node joins repeated headers with ", "), the last is taken: a
 * proxy that overwrites leaves one value, a proxy that appends puts its own
 * last, so the last value is the proxy's either way.
 */
export function clientIpFromNode(req: IncomingMessage, header: string | undefined): string | null {
  if (header) {
    const value = req.headers[header.toLowerCase()];
    const joined = Array.isArray(value) ? value.join(",") : value;
    const fromHeader = normaliseIp(joined?.split(",").at(-1));
    if (fromHeader) return fromHeader;
  }
  return normaliseIp(req.socket.remoteAddress);
}

/** What the load context carries (null outside the server, e.g. a test calling an action directly). */
export function clientIpOf(context: Readonly<RouterContextProvider> | undefined): string | null {
  try {
    return context?.get(clientIpContext) ?? null;
  } catch {
    return null;
  }
}

/**
 * The rate-limit subject of an address: IPv4 as it is, IPv6 by its /64 (one
 * home or phone is given a whole /64, so per-address limits would be free to
 * dodge).
 */
export function rateLimitSubject(ip: string | null): string {
  if (!ip) return "unknown";
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const hextets = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${hextets
    .slice(0, 4)
    .map((h) => (Number.parseInt(h || "0", 16) || 0).toString(16))
    .join(":")}::/64`;
}
