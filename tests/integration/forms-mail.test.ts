import { sql } from "drizzle-orm";
import { createServer } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { contactForm } from "~/forms/contact/handle.server";
import { runForm } from "~/forms/pipeline.server";
import { claimDueMail } from "~/mail/outbox.server";
import { smtpTransport } from "~/mail/transport.server";
import { startMailWorker, type MailWorker } from "~/mail/worker.server";
import { createTestDatabase } from "../support/db";
import { formPost, rows, sumAnswer, toFormData, nextIp } from "./forms-support";

/**
 * The outbox against a real SMTP peer (smtp-server): every message is
 * delivered exactly once, even with two workers (two server instances) on the
 * same database; with the peer down, submissions still succeed and the mail
 * goes out once it is back.
 */
type Received = { from: string; to: string[]; raw: string };

function startPeer(port = 0): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = (server as unknown as { server: import("node:net").Server }).server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : port, received });
    });
  });
}

function stopPeer(server: SMTPServer) {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as import("node:net").AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

async function submitContact(n: number) {
  const outcome = await runForm(
    contactForm,
    formPost("/contact", toFormData({ first_name: `Visitor${n}`, last_name: "Test", email: `visitor${n}@example.com`, phone: "(810) 555-0101", details: `Message ${n}`, ...sumAnswer() })),
    { db: conn.db, clientIp: nextIp() },
  );
  expect(outcome.ok).toBe(true);
  return outcome.submissionId!;
}

function worker(port: number, retryBaseMs = 100): MailWorker {
  return startMailWorker({
    db: conn.db,
    transport: smtpTransport(`smtp://127.0.0.1:${port}`),
    from: "Dover Doors & Windows <no-reply@example.com>",
    pollMs: 50,
    maxAttempts: 5,
    retryBaseMs,
  });
}

describe("outbox delivery over SMTP", () => {
  it("two workers (two instances) deliver each message exactly once", async () => {
    const peer = await startPeer();
    const ids = [await submitContact(1), await submitContact(2), await submitContact(3)];
    const workers = [worker(peer.port), worker(peer.port)];
    try {
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await stopPeer(peer.server);
    }
    const outbox = await rows<{ to: string; status: string; attempts: number; sent_at: Date | null; source_id: number }>(conn.db, "select * from outbox order by id");
    expect(outbox).toHaveLength(6);
    expect(outbox.every((m) => m.status === "sent" && m.attempts === 1 && m.sent_at !== null)).toBe(true);
    expect(new Set(outbox.map((m) => m.source_id))).toEqual(new Set(ids));

    expect(peer.received).toHaveLength(6);
    const recipients = peer.received.flatMap((m) => m.to).sort();
    expect(recipients).toEqual(["info@example.com", "info@example.com", "info@example.com", "visitor1@example.com", "visitor2@example.com", "visitor3@example.com"]);
    const company = peer.received.find((m) => m.to[0] === "info@example.com" && m.raw.includes("Visitor2"))!;
    expect(company.from).toBe("no-reply@example.com");
    expect(company.raw).toContain("multipart/alternative");
    expect(company.raw).toContain("text/plain");
    expect(company.raw).toContain("text/html");
    expect(company.raw).toMatch(/Reply-To: visitor2@example\.com/i);
  });

  it("with the peer down the submission still succeeds; the mail goes out once it is back", async () => {
    await conn.db.execute(sql`delete from outbox`);
    const port = await freePort();
    const w = worker(port, 150);
    let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
    try {
      const id = await submitContact(4);
      await waitFor(async () => {
        const r = await rows<{ attempts: number; last_error: string | null }>(conn.db, "select attempts, last_error from outbox order by id limit 1");
        return (r[0]?.attempts ?? 0) >= 1 && r[0]?.last_error !== null;
      });
      const failed = await rows<{ status: string; last_error: string }>(conn.db, `select status, last_error from outbox where source_id = ${id}`);
      expect(failed.every((m) => m.status === "pending")).toBe(true);
      expect(failed[0]!.last_error).toMatch(/ECONNREFUSED|connect/i);

      peer = await startPeer(port);
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
      expect(peer.received.map((m) => m.to[0]).sort()).toEqual(["info@example.com", "visitor4@example.com"]);
      const sent = await rows<{ attempts: number }>(conn.db, "select attempts from outbox");
      expect(sent.every((m) => m.attempts >= 2)).toBe(true);
    } finally {
      await w.stop();
      if (peer) await stopPeer(peer.server);
    }
    // Nothing is sent twice after the fact.
    expect(peer!.received).toHaveLength(2);
  });

  it("a message claimed by an instance that died mid-send goes out once its lease ends, not before", async () => {
    await conn.db.execute(sql`delete from outbox`);
    await submitContact(5);
    // Another instance claims both messages, then dies before sending them.
    const claimed = await claimDueMail(conn.db, 10, 60_000);
    expect(claimed.map((m) => [m.status, m.attempts])).toEqual([["sending", 1], ["sending", 1]]);
    expect(claimed[0]!.id).toBeLessThan(claimed[1]!.id);
    expect(claimed[0]!.subject).toBeTruthy();
    expect(await claimDueMail(conn.db, 10, 60_000)).toEqual([]); // its lease holds

    const peer = await startPeer();
    const w = worker(peer.port);
    try {
      await w.runOnce();
      expect(peer.received).toHaveLength(0);
      await conn.db.execute(sql`update outbox set locked_until = now() - interval '1 second'`); // the lease runs out
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
    } finally {
      await w.stop();
      await stopPeer(peer.server);
    }
    expect(peer.received.map((m) => m.to[0]).sort()).toEqual(["info@example.com", "visitor5@example.com"]);
    const sent = await rows<{ attempts: number; locked_until: Date | null }>(conn.db, "select attempts, locked_until from outbox");
    expect(sent.every((m) => m.attempts === 2 && m.locked_until === null)).toBe(true);
  });
});
