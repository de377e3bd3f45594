import { isIP } from "node:net";

/**
 * The visitor's IP from the request headers, proxy-aware (DECISIONS 18).
 * Same header list and order as remix-utils' getClientIPAddress, which cannot
 * load here because its peer dependency `is-ip` is not installed; node:net's
 * isIP does the same check. Behind a proxy, the proxy must overwrite these
 * headers (fly.io sets Fly-Client-IP); a direct client can spoof them.
 */
const HEADER_NAMES = [
  "X-Azure-ClientIP",
  "X-Client-IP",
  "X-Forwarded-For",
  "HTTP-X-Forwarded-For",
  "Fly-Client-IP",
  "CF-Connecting-IP",
  "Fastly-Client-Ip",
  "True-Client-Ip",
  "X-Real-IP",
  "X-Cluster-Client-IP",
  "X-Forwarded",
  "Forwarded-For",
  "Forwarded",
  "DO-Connecting-IP",
  "oxygen-buyer-ip",
] as const;

export function getClientIPAddress(request: Request | Headers): string | null {
  const headers = request instanceof Headers ? request : request.headers;
  for (const name of HEADER_NAMES) {
    const value = headers.get(name);
    if (!value) continue;
    const candidates =
      name === "Forwarded"
        ? value
            .split(/[;,]/)
            .map((p) => p.trim())
            .filter((p) => p.toLowerCase().startsWith("for="))
            .map((p) => p.slice(4).replace(/^"|"$/g, "").replace(/^\[|\](:\d+)?$/g, ""))
        : value.split(",").map((ip) => ip.trim());
    const found = candidates.find((ip) => isIP(ip) !== 0);
    if (found) return found;
  }
  return null;
}
