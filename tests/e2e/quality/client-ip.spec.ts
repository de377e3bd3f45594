import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../support/test";
import http from "node:http";
import { randomBytes } from "node:crypto";
import { closeE2eSql, e2eQuery } from "../support/db";
import { startOwnServer } from "../support/own-server";
import { freshLoopback } from "../support/raw-http";
import { E2E_PORT, e2eServerEnv } from "../support/server";
import { freshIp, noJsFormFields, waitOutMinimumFillTime } from "./form-support";

/**
 * The client IP comes from one configured source (issue 15): CLIENT_IP_HEADER
 * (fly.io: Fly-Client-IP), or the socket's address when it is unset or a
 * request lacks it. X-Forwarded-For, X-Client-IP, True-Client-Ip… are the
 * client's word and are never read, so changing them every request does not
 * make a bot a new visitor.
 */
test.afterAll(closeE2eSql);

const RATE_LIMIT_MAX = Number(e2eServerEnv().RATE_LIMIT_MAX ?? 10);
const SENT = "Your message has been sent!";

type Answer = { status: number; body: string };

/** One client on one keep-alive socket, from a loopback address of its own (the server sees a visitor no other test is). */
function oneClient() {
  const localAddress = freshLoopback();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress });
  const sockets = new Set<unknown>();
  const post = (path: string, form: Record<string, string>, headers: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const body = new URLSearchParams(form).toString();
      const req = http.request(
        {
          host: "127.0.0.1",
          port: E2E_PORT,
          path,
          method: "POST",
          agent,
          headers: {
            Host: `localhost:${E2E_PORT}`,
            Origin: `http://localhost:${E2E_PORT}`,
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": Buffer.byteLength(body),
            ...headers,
          },
        },
        (res) => {
          sockets.add(res.socket);
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { localAddress, post, sockets, close: () => agent.destroy() };
}

/** `count` no-JS contact forms (hidden fields and the answered sum), rendered long enough ago for the minimum fill time. */
async function renderedForms(request: APIRequestContext, count: number): Promise<Record<string, string>[]> {
  const forms: Record<string, string>[] = [];
  const renderedAt = Date.now();
  for (let i = 0; i < count; i++) forms.push(await noJsFormFields(request, "/contact"));
  await waitOutMinimumFillTime(renderedAt);
  return forms;
}

function contactFields(run: string, i: number) {
  return {
    first_name: "Forged",
    last_name: `Ip ${i}`,
    email: `ip.${run}.${i}@example.com`,
    phone: "(810) 555-0142",
    details: `Client IP test ${run} #${i}`,
  };
}

test("15 valid submissions from one socket with 15 different X-Forwarded-For, X-Client-IP and True-Client-Ip values are one visitor", async ({
  request,
}) => {
  test.setTimeout(90_000);
  const run = randomBytes(4).toString("hex");
  const forms = await renderedForms(request, 15);
  const client = oneClient();
  const answers: Answer[] = [];
  try {
    for (let i = 0; i < 15; i++) {
      const forged = {
        "X-Forwarded-For": `203.0.113.${i + 1}, 10.0.0.1`,
        "X-Client-IP": `198.51.100.${i + 1}`,
        "True-Client-Ip": `192.0.2.${i + 1}`,
        "X-Real-IP": `203.0.113.${100 + i}`,
        Forwarded: `for=198.51.100.${100 + i}`,
      };
      answers.push(await client.post("/contact", { ...forms[i]!, ...contactFields(run, i) }, forged));
    }
  } finally {
    client.close();
  }
  expect(client.sockets.size, "every post went over the one socket").toBe(1);

  const statuses = answers.map((a) => a.status);
  const accepted = statuses.filter((s) => s === 200).length;
  // The limit caught them: the first ones went through, every later one was refused with 429.
  expect(accepted, statuses.join(",")).toBeGreaterThan(0);
  expect(accepted, statuses.join(",")).toBeLessThanOrEqual(RATE_LIMIT_MAX);
  expect(statuses, statuses.join(",")).toEqual([...Array(accepted).fill(200), ...Array(15 - accepted).fill(429)]);
  for (const a of answers.slice(0, accepted)) expect(a.body).toContain(SENT);
  for (const a of answers.slice(accepted)) expect(a.body).toMatch(/Please wait a few minutes/);

  // What landed: one row per accepted post, and one rate-limit bucket, the socket's; none for a forged address.
  const rows = await e2eQuery<{ n: number }>("select count(*)::int as n from contact_submissions where email like $1", [
    `ip.${run}.%`,
  ]);
  expect(rows[0]!.n).toBe(accepted);
  const buckets = await e2eQuery<{ key: string }>("select key from rate_limits where key like $1", [
    `%contact:${client.localAddress}`,
  ]);
  expect(buckets.length).toBeGreaterThan(0);
  const forgedBuckets = await e2eQuery<{ key: string }>(
    "select key from rate_limits where key like '%203.0.113.%' or key like '%198.51.100.%' or key like '%192.0.2.%'",
  );
  expect(forgedBuckets).toEqual([]);
});

test("with CLIENT_IP_HEADER=Fly-Client-IP, two different Fly-Client-IP values on one socket are two visitors", async ({
  request,
}) => {
  test.setTimeout(90_000);
  expect(e2eServerEnv().CLIENT_IP_HEADER).toBe("Fly-Client-IP");
  const run = randomBytes(4).toString("hex");
  const forms = await renderedForms(request, RATE_LIMIT_MAX + 3);
  const [first, second] = [freshIp(), freshIp()];
  const client = oneClient();
  const asFirst: number[] = [];
  let asSecond: Answer;
  try {
    // The first visitor posts until the limit refuses them…
    for (let i = 0; i < RATE_LIMIT_MAX + 2 && !asFirst.includes(429); i++) {
      asFirst.push(
        (await client.post("/contact", { ...forms[i]!, ...contactFields(run, i) }, { "Fly-Client-IP": first })).status,
      );
    }
    // …and the second, on the same socket, is a visitor of their own.
    asSecond = await client.post(
      "/contact",
      { ...forms.at(-1)!, ...contactFields(run, 99) },
      { "Fly-Client-IP": second },
    );
  } finally {
    client.close();
  }
  expect(asFirst.at(-1), asFirst.join(",")).toBe(429);
  expect(asFirst.filter((s) => s === 200).length).toBeLessThanOrEqual(RATE_LIMIT_MAX);
  expect(asSecond.status).toBe(200);
  expect(asSecond.body).toContain(SENT);
  const [row] = await e2eQuery<{ n: number }>("select count(*)::int as n from contact_submissions where email = $1", [
    `ip.${run}.99@example.com`,
  ]);
  expect(row!.n).toBe(1);
  // Two buckets, one per header value; the socket's address keys none of these posts.
  for (const ip of [first, second]) {
    expect(await e2eQuery("select key from rate_limits where key like $1", [`%contact:${ip}`])).not.toEqual([]);
  }
  expect(await e2eQuery("select key from rate_limits where key like $1", [`%contact:${client.localAddress}`])).toEqual(
    [],
  );
});

test("behind a proxy that ends TLS (fly.io): a browser's https post is accepted, the scheme comes from SITE_URL and not from a header", async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  // The server speaks plain HTTP; visitors see https://localhost:<port>, as on fly.io.
  const server = await startOwnServer({ env: (port) => ({ SITE_URL: `https://localhost:${port}` }) });
  try {
    const request = await playwright.request.newContext({ baseURL: server.url });
    const run = randomBytes(4).toString("hex");
    const post = async (origin: string, i: number) => {
      const form = { ...(await noJsFormFields(request, "/contact")), ...contactFields(run, i) };
      return request.post("/contact", {
        form,
        headers: {
          Origin: origin,
          "Sec-Fetch-Site": "same-origin",
          "Fly-Client-IP": freshIp(),
          "X-Forwarded-Proto": "https",
        },
      });
    };
    // What a browser on the https site sends: React Router's own origin check and ours both let it through.
    const viaProxy = await post(`https://localhost:${server.port}`, 1);
    expect(viaProxy.status(), (await viaProxy.text()).slice(0, 300)).toBe(200);
    expect(await viaProxy.text()).toContain(SENT);
    // The plain-http origin is another origin than the site's, whatever X-Forwarded-Proto claims.
    const otherScheme = await request.post("/contact", {
      form: contactFields(run, 2),
      headers: { Origin: `http://localhost:${server.port}`, "Fly-Client-IP": freshIp(), "X-Forwarded-Proto": "http" },
    });
    expect(otherScheme.status()).toBe(403);
    await request.dispose();
  } finally {
    server.cleanup();
  }
});
