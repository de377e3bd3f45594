import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { contactForm } from "~/forms/contact/handle.server";
import { runForm } from "~/forms/pipeline";
import PgBoss from "pg-boss";
import { MAIL_QUEUE } from "~/mail/outbox.server";
import { renderSubmissionMail } from "~/mail/render.server";
import { smtpTransport, type MailMessage } from "~/mail/transport.server";
import { startMailWorker, type MailWorker } from "~/mail/worker.server";
import { createTestDatabase } from "../support/db";
import { freePort, startPeer, stopPeer, waitFor } from "./smtp-peer";
import { formPost, honeypotFields, rows, sumAnswer, toFormData, nextIp } from "./forms-support";

/**
 * The outbox against a real SMTP peer (smtp-server): every message is
 * delivered exactly once, even with two workers (two server instances) on the
 * same database; with the peer down, submissions still succeed and the mail
 * goes out once it is back.
 */
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
    formPost(
      "/contact",
      toFormData({
        first_name: `Visitor${n}`,
        last_name: "Test",
        email: `visitor${n}@example.com`,
        phone: "(810) 555-0101",
        details: `Message ${n}`,
        ...honeypotFields(),
        ...sumAnswer(),
      }),
    ),
    { db: conn.db, clientIp: nextIp() },
  );
  expect(outcome.ok).toBe(true);
  return outcome.submissionId!;
}

function worker(port: number, retryBaseMs = 100): Promise<MailWorker> {
  return startMailWorker({
    conn,
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
    const workers = await Promise.all([worker(peer.port), worker(peer.port)]);
    try {
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await stopPeer(peer.server);
    }
    const outbox = await rows<{
      to: string;
      status: string;
      attempts: number;
      sent_at: Date | null;
      source_id: number;
    }>(conn.db, "select * from outbox order by id");
    expect(outbox).toHaveLength(6);
    expect(outbox.every((m) => m.status === "sent" && m.attempts === 1 && m.sent_at !== null)).toBe(true);
    expect(new Set(outbox.map((m) => m.source_id))).toEqual(new Set(ids));

    expect(peer.received).toHaveLength(6);
    const recipients = peer.received.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([
      "info@example.com",
      "info@example.com",
      "info@example.com",
      "visitor1@example.com",
      "visitor2@example.com",
      "visitor3@example.com",
    ]);
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
    const w = await worker(port, 150);
    let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
    try {
      const id = await submitContact(4);
      // Both messages are tried (at once: the worker keeps several in flight) and refused.
      await waitFor(async () => {
        const r = await rows<{ last_error: string | null }>(
          conn.db,
          `select last_error from outbox where source_id = ${id}`,
        );
        return r.length === 2 && r.every((m) => m.last_error !== null);
      });
      const failed = await rows<{ status: string; last_error: string }>(
        conn.db,
        `select status, last_error from outbox where source_id = ${id}`,
      );
      // Waiting for their retry (pg-boss's backoff, from 1 s here), neither sent nor given up.
      expect(failed.every((m) => m.status === "pending")).toBe(true);
      expect(failed.every((m) => /ECONNREFUSED|connect/i.test(m.last_error))).toBe(true);

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

  it("a mail job taken by an instance that died mid-send goes out once the job expires, not before", async () => {
    await conn.db.execute(sql`delete from outbox`);
    await submitContact(5);
    // Another instance takes both jobs, then dies before sending them.
    const other = new PgBoss({ ...conn.queue, supervise: false, schedule: false });
    await other.start();
    expect(await other.fetch(MAIL_QUEUE, { batchSize: 10 })).toHaveLength(2);

    const peer = await startPeer();
    const w = await worker(peer.port);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // three polls of the worker: nothing it may take
      expect(peer.received).toHaveLength(0);
      // The jobs' time in the dead instance's hands runs out; pg-boss's supervision (every instance runs it) retries them.
      await conn.db.execute(sql`update pgboss.job set started_on = now() - interval '1 hour' where state = 'active'`);
      await other.expire();
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
    } finally {
      await w.stop();
      await other.stop({ graceful: false });
      await stopPeer(peer.server);
    }
    expect(peer.received.map((m) => m.to[0]).sort()).toEqual(["info@example.com", "visitor5@example.com"]);
    expect(await rows(conn.db, "select attempts from outbox")).toEqual([{ attempts: 1 }, { attempts: 1 }]);
    const jobs = await rows<{ state: string; retry_count: number }>(
      conn.db,
      "select state, retry_count from pgboss.job where name = 'mail' order by created_on desc limit 2",
    );
    expect(jobs).toEqual([
      { state: "completed", retry_count: 1 },
      { state: "completed", retry_count: 1 },
    ]);
  });

  it("the worker renders a submission's mails when it sends them: the visitor gets the template's HTML of what they sent", async () => {
    await conn.db.execute(sql`delete from outbox`);
    const id = await submitContact(6);
    const stored = await rows<{ html: string | null; content: unknown }>(
      conn.db,
      "select html, content from outbox order by id",
    );
    expect(stored.every((m) => m.html === null && m.content !== null)).toBe(true);

    const sent: MailMessage[] = [];
    const w = await startMailWorker({
      conn,
      transport: { description: "memory", send: async (message) => void sent.push(message), close() {} },
      from: "Dover Doors & Windows <no-reply@example.com>",
      pollMs: 50,
      maxAttempts: 5,
      retryBaseMs: 100,
    });
    try {
      await waitFor(async () => (await rows(conn.db, "select id from outbox where status <> 'sent'")).length === 0);
    } finally {
      await w.stop();
    }
    const confirmation = sent.find((m) => m.to === "visitor6@example.com")!;
    const rowsSent = [
      { label: "First Name", value: "Visitor6" },
      { label: "Last Name", value: "Test" },
      { label: "Email", value: "visitor6@example.com" },
      { label: "Phone", value: "(810) 555-0101" },
      { label: "How can we help you?", value: "Message 6" },
    ];
    const expected = renderSubmissionMail({
      title: "Thank you — we received your message",
      intro:
        "Hello Visitor6 Test, thank you for contacting Dover Doors & Windows. We received your contact message. We will get back to you soon.",
      rows: rowsSent,
      footer:
        "Dover Doors & Windows · Questions? Call us at (810) 555-0100, or reply to this e-mail: replies reach our office (info@example.com).",
    });
    expect(confirmation.subject).toBe("We received your contact message — Dover Doors & Windows");
    expect(confirmation.html).toBe(expected.html);
    expect(confirmation.text).toBe(expected.text);
    const company = sent.find((m) => m.to === "info@example.com")!;
    expect(company.html).toContain(`New contact message #${id}</h1>`);
  });
});
