import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";

/**
 * Node's request and response to React Router's Fetch API and back, and the few middleware steps
 * before it (compression, the static files, Vite's in development), without Express: Express 4
 * (body-parser, qs and the rest, none of which the site uses) was a tenth of the server's start
 * (issue 39; docs/decisions/075-start-and-memory.md). The conversion is what
 * `@react-router/express` does, with the same helpers of `@react-router/node`: the request body is
 * a stream read as the app reads it (backpressure: the body reader's byte bound holds), the
 * response body is written as the client takes it, and a client that goes away aborts the
 * request's signal and cancels the body.
 */

/** A step in the connect style: compression, sirv and Vite's middlewares all are. */
export type Step = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Runs `steps` in order, each passing to the next by calling `next()`, until one answers; after
 * the last, `last`. An error a step passes to `next`, or that a step or `last` throws, goes to
 * `fail`.
 */
export function runSteps(
  steps: readonly Step[],
  req: IncomingMessage,
  res: ServerResponse,
  last: () => void,
  fail: (error: unknown) => void,
): void {
  let index = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined) {
      fail(error);
      return;
    }
    const step = steps[index++];
    try {
      if (step) step(req, res, next);
      else last();
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}

/**
 * The Fetch API request of a Node request. The guards before it (server/guards.ts) have made the
 * target a path and checked the Host; the scheme is the site's (SITE_URL), never a header's.
 */
export function toFetchRequest(req: IncomingMessage, res: ServerResponse, scheme: string): Request {
  const url = new URL(`${scheme}://${req.headers.host}${req.url ?? "/"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  let controller: AbortController | undefined = new AbortController();
  res.on("finish", () => (controller = undefined));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** Whether the client is gone or the answer complete: nothing more can be written. */
function isClosed(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Writes a Fetch API response to Node's response; a client that went away ends it quietly. */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  if (isClosed(res)) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    // Set-Cookie is the one header that may repeat; every other one arrives joined.
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (isClosed(res)) return;
    throw error;
  }
}
