import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Connection } from "@db/client.server";
import { outbox } from "@db/schema";
import { enqueueMail } from "~/mail/outbox.server";
import { messageIdOf, startMailWorker } from "~/mail/worker.server";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import { waitFor } from "./smtp-peer";

/**
 * The mail queue is pg-boss (docs/decisions/045-job-queue.md): a mail's job
 * is added in the submission's own transaction, on PGlite and on PostgreSQL
 * alike, and pg-boss retries a failed send with backoff until the attempts
 * run out.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});
beforeEach(async () => {
  await conn.db.execute(sql`delete from outbox`);
  await conn.db.execute(sql`delete from pgboss.job`);
});

const mail = { to: "ada@example.com", subject: "Hello", text: "Body" };
const jobs = () =>
  rows<{ state: string; data: { outboxId: number }; retry_count: number }>(
    conn.db,
    "select state::text, data, retry_count from pgboss.job where name = 'mail' order by (data->>'outboxId')::int",
  );

describe("a mail's job and its submission's transaction", () => {
  it("rolls back with it: neither the row nor the job stays", async () => {
    await conn.db
      .transaction(async (tx) => {
        await enqueueMail(tx, mail);
        throw new Error("the handler failed");
      })
      .catch(() => {});
    expect(await rows(conn.db, "select id from outbox")).toEqual([]);
    expect(await jobs()).toEqual([]);
  });

  it("commits with it: one job per mail, naming its row", async () => {
    const ids = await conn.db.transaction((tx) => enqueueMail(tx, mail, { ...mail, to: "bo@example.com" }));
    expect(ids).toHaveLength(2);
    expect((await jobs()).map((job) => [job.state, job.data.outboxId])).toEqual(ids.map((id) => ["created", id]));
  });
});

describe("a send that keeps failing", () => {
  it("is tried MAIL_MAX_ATTEMPTS times, with a growing pause and the same Message-ID, then marked failed", async () => {
    const tried: number[] = [];
    const messageIds: (string | undefined)[] = [];
    const w = await startMailWorker({
      conn,
      transport: {
        description: "refusing",
        send: async (message) => {
          tried.push(Date.now());
          messageIds.push(message.messageId);
          throw new Error("550 mailbox unavailable");
        },
        close() {},
      },
      from: "Office <x@example.com>",
      pollMs: 500,
      maxAttempts: 3,
      retryBaseMs: 1_000,
    });
    try {
      const [id] = await conn.db.transaction((tx) => enqueueMail(tx, mail));
      await waitFor(
        async () => (await rows(conn.db, `select id from outbox where status = 'failed'`)).length === 1,
        30_000,
      );
      expect(await rows(conn.db, `select status, attempts, last_error from outbox where id = ${id}`)).toEqual([
        { status: "failed", attempts: 3, last_error: "550 mailbox unavailable" },
      ]);
      // A retry is recognisably the same message: one id, the row's, on the sender's domain.
      const [row] = await conn.db.select().from(outbox).where(eq(outbox.id, id!));
      expect(messageIds).toEqual(Array(3).fill(messageIdOf(row!, "x@example.com")));
      expect(messageIds[0]).toMatch(/^<[\w-]{22}@example\.com>$/);
    } finally {
      await w.stop();
    }
    expect(tried).toHaveLength(3);
    const [first, second] = [tried[1]! - tried[0]!, tried[2]! - tried[1]!];
    expect(first).toBeGreaterThanOrEqual(1_000);
    expect(second).toBeGreaterThan(first);
    expect((await jobs()).map((job) => [job.state, job.retry_count])).toEqual([["failed", 2]]);
  });
});

describe("pg-boss on the embedded database", () => {
  it("a block of statements that fails is rolled back: the site's next query still runs", async () => {
    const embedded = await openDatabase({ seed: false });
    try {
      if (!("db" in embedded.queue)) throw new Error("PGlite gives the queue its own handle");
      await expect(embedded.queue.db.executeSql("BEGIN; SELECT 1/0; COMMIT;", [])).rejects.toThrow(/division by zero/);
      expect(await rows(embedded.db, "select 1 as one")).toEqual([{ one: 1 }]);
    } finally {
      await embedded.close();
    }
  });
});
