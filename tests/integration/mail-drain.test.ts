import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { env } from "~/lib/env.server";
import { smtpTransport } from "~/mail/transport.server";
import { startMailWorker } from "~/mail/worker.server";
import { createTestDatabase, usingServer } from "../support/db";
import { rows } from "./forms-support";
import { startPeer, stopPeer, waitFor } from "./smtp-peer";

/**
 * Issue 15, item 14: the worker sent one batch of 10 per poll (5 s) when no
 * new posts arrived, 2 mails/s: a burst of 15,000 took two hours. It now
 * keeps claiming while a claim comes back full, several messages in flight
 * over pooled SMTP connections, and sleeps only once the outbox is drained.
 *
 * A backlog of 2,000 rows written straight into the table (no commit wakes
 * the worker), the poll interval at its default, a real SMTP peer.
 */
const BACKLOG = 2_000;
const OLD_BATCH = 10;

let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

/** An outbox holding exactly `count` pending company mails, to <tag>1@example.com …, each with its job. */
async function queueMails(tag: string, count: number): Promise<void> {
  await conn.db.execute(sql`delete from outbox`);
  await conn.db.execute(sql`delete from pgboss.job`);
  await conn.db.execute(sql`
    with mail as (
      insert into outbox ("to", subject, text, html, kind)
      select ${tag} || g || '@example.com', ${tag} || ' ' || g, 'Body ' || g, '<p>Body ' || g || '</p>', 'company'
      from generate_series(1, ${count}::int) g
      returning id
    )
    insert into pgboss.job (name, data) select 'mail', json_build_object('outboxId', id)::jsonb from mail`);
}

describe("the outbox worker drains a backlog", () => {
  it(
    `sends ${BACKLOG} queued mails at far more than one batch per poll, each exactly once`,
    { timeout: 180_000 },
    async () => {
      await queueMails("backlog", BACKLOG);
      const pollMs = env().MAIL_POLL_MS;
      expect(pollMs).toBe(5_000); // the default: the worker may not lean on a short poll

      const peer = await startPeer();
      const started = performance.now();
      const worker = await startMailWorker({
        conn,
        transport: smtpTransport(`smtp://127.0.0.1:${peer.port}`),
        from: "Dover Doors & Windows <no-reply@example.com>",
        pollMs,
        maxAttempts: 5,
        retryBaseMs: 30_000,
      });
      let seconds: number;
      try {
        await waitFor(async () => peer.received.length >= BACKLOG, 170_000, 100);
        seconds = (performance.now() - started) / 1000;
        // markSent follows each batch's last send: give the last statement a moment.
        await waitFor(
          async () => (await rows(conn.db, "select id from outbox where status <> 'sent' limit 1")).length === 0,
          10_000,
        );
      } finally {
        await worker.stop();
        await stopPeer(peer.server);
      }

      const rate = BACKLOG / seconds;
      const perPoll = rate * (pollMs / 1000);
      console.log(
        `[mail drain] ${BACKLOG} outbox rows sent over SMTP in ${seconds.toFixed(1)} s on ${usingServer() ? "PostgreSQL" : "PGlite"}: ` +
          `${rate.toFixed(0)} mails/s, ${perPoll.toFixed(0)} per ${pollMs / 1000} s poll (before: ${OLD_BATCH} per poll, ${OLD_BATCH / (pollMs / 1000)} mails/s)`,
      );
      // Well above one batch per poll: at least ten batches' worth per interval
      // (the old worker would have needed ${BACKLOG / OLD_BATCH} polls, 400 s).
      expect(perPoll).toBeGreaterThan(10 * OLD_BATCH);

      // Each row once, and each delivered once.
      const outbox = await rows<{ status: string; attempts: number }>(conn.db, "select status, attempts from outbox");
      expect(outbox).toHaveLength(BACKLOG);
      expect(outbox.every((m) => m.status === "sent" && m.attempts === 1)).toBe(true);
      const recipients = peer.received.flatMap((m) => m.to);
      expect(recipients).toHaveLength(BACKLOG);
      expect(new Set(recipients).size).toBe(BACKLOG);
    },
  );
});

describe("several at once, at the peer's pace", () => {
  it(
    "keeps a few messages in flight with a slow peer, never more than its concurrency",
    { timeout: 60_000 },
    async () => {
      await queueMails("slow", 100);
      // A relay that takes 50 ms to accept each message: one at a time would be 20 mails/s at most.
      const peer = await startPeer(0, { delayMs: 50 });
      const started = performance.now();
      const worker = await startMailWorker({
        conn,
        transport: smtpTransport(`smtp://127.0.0.1:${peer.port}`, { maxConnections: 4 }),
        from: "Dover Doors & Windows <no-reply@example.com>",
        pollMs: env().MAIL_POLL_MS,
        maxAttempts: 5,
        retryBaseMs: 30_000,
        concurrency: 4,
      });
      try {
        await waitFor(
          async () => (await rows(conn.db, "select id from outbox where status <> 'sent' limit 1")).length === 0,
          50_000,
          100,
        );
      } finally {
        await worker.stop();
        await stopPeer(peer.server);
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `[mail drain] 100 mails to a 50 ms peer in ${seconds.toFixed(1)} s, at most ${peer.maxInFlight()} in flight`,
      );
      expect(peer.received).toHaveLength(100);
      expect(peer.maxInFlight()).toBeGreaterThanOrEqual(2);
      expect(peer.maxInFlight()).toBeLessThanOrEqual(4);
    },
  );
});

describe("stopping mid-backlog", () => {
  it(
    "stop() lets the batch in hand finish and marks it sent; the rest stays queued, untried",
    { timeout: 60_000 },
    async () => {
      await queueMails("stop", 40);
      const peer = await startPeer(0, { delayMs: 300 });
      const worker = await startMailWorker({
        conn,
        transport: smtpTransport(`smtp://127.0.0.1:${peer.port}`, { maxConnections: 4 }),
        from: "Dover Doors & Windows <no-reply@example.com>",
        pollMs: env().MAIL_POLL_MS,
        maxAttempts: 5,
        retryBaseMs: 30_000,
        concurrency: 4,
        batchSize: 20,
      });
      try {
        await waitFor(async () => peer.received.length >= 1, 20_000, 10);
        await worker.stop();
      } finally {
        await stopPeer(peer.server);
      }
      const outbox = await rows<{ to: string; status: string; attempts: number }>(
        conn.db,
        "select * from outbox order by id",
      );
      const sent = outbox.filter((m) => m.status === "sent");
      // Everything the peer accepted is marked sent (nothing goes out twice): one batch of 20.
      expect(sent.map((m) => m.to).sort()).toEqual(peer.received.flatMap((m) => m.to).sort());
      expect(sent).toHaveLength(20);
      const back = outbox.filter((m) => m.status === "pending");
      expect(back.length).toBe(40 - sent.length);
      expect(back.every((m) => m.attempts === 0)).toBe(true);
      // Their jobs wait, untried, for the next worker; none is left in a worker's hands.
      const jobs = await rows<{ state: string; n: number }>(
        conn.db,
        "select state::text, count(*)::int as n from pgboss.job where name = 'mail' group by state order by state",
      );
      expect(jobs).toEqual([
        { state: "completed", n: 20 },
        { state: "created", n: 20 },
      ]);
    },
  );
});
