import { expect, test } from "../support/test";
import { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { startOwnServer } from "../support/own-server";
import { rawRequest } from "../support/raw-http";
import { noJsFormFields } from "./form-support";

/**
 * The one ordered shutdown (issue 15): on SIGTERM the server stops accepting
 * connections, lets requests in flight finish (10 s at most), stops the mail
 * worker, closes the database, and exits 0. Each test starts its own
 * production server (node server.mjs, as Docker and npm start do) on a scratch
 * embedded database, and ends it.
 */

/** Whether a new TCP connection to `port` is refused (the listener has closed). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED"));
  });
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const withinMs = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);

test("SIGTERM during a slow form post: the post completes with its answer and row, new connections are refused, the process exits 0", async ({
  playwright,
}) => {
  test.setTimeout(120_000);
  const server = await startOwnServer({ requestStarts: true });
  try {
    const request = await playwright.request.newContext({ baseURL: server.url });
    const hidden = await noJsFormFields(request, "/contact");
    await request.dispose();
    const tag = randomBytes(4).toString("hex");
    const body = new URLSearchParams({
      ...hidden,
      first_name: "Slow",
      last_name: "Sender",
      email: `slow.${tag}@example.com`,
      phone: "(810) 555-0142",
      details: `Sent while the server shuts down (${tag})`,
    }).toString();
    const half = Math.floor(body.length / 2);

    let refusedAfterSigterm = false;
    let exitedEarly = false;
    const answer = await rawRequest({
      port: server.port,
      head: [
        "POST /contact HTTP/1.1",
        `Host: localhost:${server.port}`,
        `Origin: ${server.url}`,
        "Content-Type: application/x-www-form-urlencoded",
        `Content-Length: ${body.length}`,
      ].join("\r\n"),
      body: [body.slice(0, half), body.slice(half)],
      // Half the body is out: the request is in flight. Now the platform stops the machine.
      afterFirstChunk: async () => {
        await expect.poll(() => server.requestsStarted("POST", "/contact")).toBe(1);
        server.child.kill("SIGTERM");
        refusedAfterSigterm = await until(() => refused(server.port), 5_000);
        // The scenario, not a wait for something: the visitor's connection is slow, the rest of the body comes 1 s later.
        await new Promise((r) => setTimeout(r, 1_000));
        exitedEarly = server.child.exitCode !== null;
      },
      timeoutMs: 30_000,
    });

    expect(refusedAfterSigterm, "a new connection after SIGTERM is refused").toBe(true);
    expect(exitedEarly, "the process waited for the request in flight").toBe(false);
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(answer.body).toContain("Your message has been sent!");
    // Keep-alive would have held the process; the answer said the connection closes.
    expect(answer.headers.connection).toBe("close");

    expect(await withinMs(server.exited, 30_000), server.output()).toBe(0);
    expect(server.output()).toContain('"msg":"database closed"');
    expect(server.output()).not.toContain("still in flight at the deadline");

    // The database was closed cleanly with the row in it: it opens again and holds the submission.
    const db = new PGlite(path.join(server.dataDir, "db"));
    try {
      const { rows } = await db.query<{ n: number }>(
        "select count(*)::int as n from contact_submissions where email = $1",
        [`slow.${tag}@example.com`],
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      await db.close();
    }
  } finally {
    server.cleanup();
  }
});

test("an idle keep-alive connection does not hold the shutdown; a request stuck past the 10 s bound is cut and the process still exits 0", async () => {
  test.setTimeout(120_000);
  const server = await startOwnServer({ requestStarts: true });
  try {
    // An idle keep-alive connection (a browser that loaded a page and went quiet).
    const idle = net.connect(server.port, "127.0.0.1");
    await new Promise((r) => idle.once("connect", r));
    idle.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`);
    await new Promise((r) => idle.once("data", r));
    const idleClosed = new Promise((r) => idle.once("close", r));

    // A post whose body never comes (a dead client that keeps its socket open).
    const stuck = net.connect(server.port, "127.0.0.1");
    await new Promise((r) => stuck.once("connect", r));
    stuck.write(
      `POST /contact HTTP/1.1\r\nHost: localhost:${server.port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nfirst_name=`,
    );
    stuck.on("error", () => {});
    // In flight: the app has its headers and waits for the body.
    await expect.poll(() => server.requestsStarted("POST", "/contact")).toBe(1);

    const started = Date.now();
    server.child.kill("SIGTERM");
    expect(await withinMs(idleClosed, 3_000), "the idle connection is closed at once").not.toBe("timeout");
    expect(await withinMs(server.exited, 30_000), server.output()).toBe(0);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(9_500); // the stuck request had its 10 s…
    expect(took).toBeLessThan(20_000); // …and no more
    expect(server.output()).toContain("still in flight at the deadline");
    stuck.destroy();
  } finally {
    server.cleanup();
  }
});
