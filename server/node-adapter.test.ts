import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runSteps, sendFetchResponse, toFetchRequest, type Step } from "./node-adapter";

/** A real server on a free port whose every request goes to `listener`; closed after each test. */
let server: http.Server | undefined;
async function serveWith(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = http.createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  const closing = server;
  server = undefined;
  if (closing) await new Promise((resolve) => closing.close(resolve));
});

describe("Node to the Fetch API and back (what replaced Express)", () => {
  it("hands the app the site's scheme, the path, the headers and the body as sent", async () => {
    let seen: { url: string; method: string; type: string | null; body: string } | undefined;
    const base = await serveWith((req, res) => {
      const request = toFetchRequest(req, res, "https");
      void request.text().then(async (body) => {
        seen = { url: request.url, method: request.method, type: request.headers.get("content-type"), body };
        await sendFetchResponse(res, new Response("ok"));
      });
    });
    const answer = await fetch(`${base}/contact?x=1`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Proto": "http" },
      body: "name=Jane&message=%C3%A9t%C3%A9",
    });
    expect(await answer.text()).toBe("ok");
    expect(seen).toEqual({
      url: `https://${new URL(base).host}/contact?x=1`,
      method: "POST",
      type: "application/x-www-form-urlencoded",
      body: "name=Jane&message=%C3%A9t%C3%A9",
    });
  });

  it("sends the status, every Set-Cookie on its own and a streamed body", async () => {
    const base = await serveWith((_req, res) => {
      const headers = new Headers({ "Content-Type": "text/plain", "Cache-Control": "no-store" });
      headers.append("Set-Cookie", "a=1; Path=/");
      headers.append("Set-Cookie", "b=2; Path=/; HttpOnly");
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("first "));
          controller.enqueue(new TextEncoder().encode("second"));
          controller.close();
        },
      });
      void sendFetchResponse(res, new Response(body, { status: 422, headers }));
    });
    const answer = await fetch(`${base}/`);
    expect(answer.status).toBe(422);
    expect(answer.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.text()).toBe("first second");
  });

  it("runs the steps in order until one answers; a step's throw or error, or the last one's, goes to fail", async () => {
    const order: string[] = [];
    const failures: unknown[] = [];
    const passes =
      (name: string): Step =>
      (_req, _res, next) => {
        order.push(name);
        next();
      };
    const answers: Step = (_req, res) => {
      order.push("answers");
      res.end("static");
    };
    const req = {} as IncomingMessage;
    const res = { end: () => {} } as unknown as ServerResponse;
    runSteps(
      [passes("a"), answers, passes("never")],
      req,
      res,
      () => order.push("last"),
      (e) => failures.push(e),
    );
    runSteps(
      [passes("b")],
      req,
      res,
      () => order.push("last"),
      (e) => failures.push(e),
    );
    expect(order).toEqual(["a", "answers", "b", "last"]);

    const boom = new Error("boom");
    runSteps([() => { throw boom; }], req, res, () => order.push("not reached"), (e) => failures.push(e)); // prettier-ignore
    runSteps(
      [(_q, _s, next) => next(boom)],
      req,
      res,
      () => order.push("not reached"),
      (e) => failures.push(e),
    );
    runSteps([], req, res, () => { throw boom; }, (e) => failures.push(e)); // prettier-ignore
    expect(failures).toEqual([boom, boom, boom]);
    expect(order).not.toContain("not reached");
  });
});
