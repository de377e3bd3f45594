import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, toCount, type Connection, type Database } from "@db/client.server";
import { contactForm } from "~/forms/contact/handle.server";
import { formAction } from "~/forms/actions.server";
import { runForm, UNAVAILABLE_MESSAGE } from "~/forms/pipeline";
import { usingServer } from "../support/db";
import { startTcpProxy } from "../support/tcp-proxy";
import { formPost, honeypotFields, sumAnswer, toFormData, nextIp } from "./forms-support";
import { env } from "~/lib/env.server";

/**
 * The database goes away in the middle of a run (issue 5 §5): the form answers
 * a clear 503 with every value kept and nothing half-written, and works again
 * once the database is back. The app reaches a real database through a TCP
 * proxy that the test cuts and restores: the PostgreSQL server when
 * DATABASE_URL is set, otherwise an embedded PGlite shared over the wire
 * protocol (the same share the running site offers).
 */
let backing: Connection | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let dataDir: string | undefined;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let app: Connection;
let appUrl: URL;
let poolMax: number;

beforeAll(async () => {
  let target: URL;
  if (usingServer()) {
    const serverUrl = process.env.DATABASE_URL!;
    const name = `t_outage_${Date.now().toString(36)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end();
    target = new URL(serverUrl);
    target.pathname = `/${name}`;
    dropDatabase = async () => {
      const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    };
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), "outage-"));
    backing = await openDatabase({ dataDir, socketPort: 21000 + Math.floor(Math.random() * 20000), seed: false });
    target = new URL(backing.socketUrl!);
  }
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  appUrl = new URL(target);
  appUrl.host = `127.0.0.1:${proxy.port}`;
  // One connection: the embedded share serves one conversation at a time.
  // (env() is parsed once: a setting is changed on it, not on process.env.)
  poolMax = env().DATABASE_POOL_MAX;
  env().DATABASE_POOL_MAX = 1;
  app = await openDatabase({ databaseUrl: appUrl.toString(), seed: false });
});

afterAll(async () => {
  await app?.close().catch(() => {});
  await proxy?.close();
  await backing?.close();
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  env().DATABASE_POOL_MAX = poolMax;
});

async function rows(db: Database, email: string) {
  const [c] = await db
    .execute<{ n: unknown }>(sql`select count(*) as n from contact_submissions where email = ${email}`)
    .then((r) =>
      "rows" in (r as object) ? (r as unknown as { rows: { n: unknown }[] }).rows : (r as unknown as { n: unknown }[]),
    );
  return toCount(c?.n);
}

function post(email: string) {
  return formPost(
    "/contact",
    toFormData({
      first_name: "Grace",
      last_name: "Hopper",
      email,
      phone: "(810) 555-0144",
      details: "Our door is stuck.",
      ...honeypotFields(),
      ...sumAnswer(),
    }),
  );
}

describe(`a database outage mid-run (${usingServer() ? "PostgreSQL server" : "PGlite"})`, () => {
  it("answers 503 with the values kept, writes nothing, and recovers when the database returns", async () => {
    expect((await runForm(contactForm, post("before@example.com"), { db: app.db, clientIp: nextIp() })).ok).toBe(true);

    await proxy.cut();
    const during = await formAction(
      contactForm,
      { request: post("during@example.com") },
      { db: app.db, clientIp: nextIp() },
    );
    const init = during.init as { status?: number; headers?: HeadersInit } | null;
    expect(init?.status).toBe(503);
    expect(new Headers(init?.headers).get("Retry-After")).toBe("30");
    expect(during.data).toMatchObject({ status: "error", message: UNAVAILABLE_MESSAGE });
    expect(during.data.lastResult?.initialValue).toMatchObject({
      first_name: "Grace",
      email: "during@example.com",
      details: "Our door is stuck.",
    });

    await proxy.restore();
    // The pool reconnects by itself: the next visitor's submission goes through.
    let after = await runForm(contactForm, post("after@example.com"), { db: app.db, clientIp: nextIp() });
    for (let i = 0; i < 5 && !after.ok; i++)
      after = await runForm(contactForm, post("after@example.com"), { db: app.db, clientIp: nextIp() });
    expect(after).toMatchObject({ ok: true, status: 200 });

    expect(await rows(app.db, "before@example.com")).toBe(1);
    expect(await rows(app.db, "during@example.com")).toBe(0);
    expect(await rows(app.db, "after@example.com")).toBe(1);
  });
});
