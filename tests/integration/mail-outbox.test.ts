import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { rateLimits } from "@db/schema";
import { takeRateLimit } from "~/http/rate-limit.server";
import { env } from "~/lib/env.server";
import { clearSentBodies, enqueueMail, type OutgoingMail } from "~/mail/outbox.server";
import { createTestDatabase, usingServer } from "../support/db";
import { rows } from "./forms-support";

/**
 * The outbox's limits (issue 15): at most MAIL_CONFIRMATIONS_PER_DAY visitor
 * confirmations per address (the company copy always goes), sent bodies
 * cleared after MAIL_RETENTION_DAYS, and the rate-limit counters (the
 * housekeeping that runs these is tested in maintenance.test.ts).
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
  await conn.db.execute(sql`delete from rate_limits`);
});

function submission(n: number, to: string): OutgoingMail[] {
  return [
    {
      to: "info@example.com",
      replyTo: to,
      subject: `New contact message #${n}`,
      text: `Company copy ${n}`,
      source: { table: "contact_submissions", id: n },
    },
    {
      to,
      replyTo: "info@example.com",
      subject: "We received your contact message",
      text: `Thank you ${n}`,
      html: `<p>Thank you ${n}</p>`,
      source: { table: "contact_submissions", id: n },
      kind: "confirmation",
    },
  ];
}

type Row = {
  id: number;
  to: string;
  kind: string;
  source_id: number | null;
  text: string;
  html: string | null;
  status: string;
  cleared_at: Date | null;
};
const outbox = () => rows<Row>(conn.db, "select * from outbox order by id");

describe("visitor confirmations per address", () => {
  it("four submissions to one address in a day: four company copies, three confirmations; another address is unaffected", async () => {
    expect(env().MAIL_CONFIRMATIONS_PER_DAY).toBe(3);
    const written: number[][] = [];
    for (let n = 1; n <= 4; n++)
      written.push(await conn.db.transaction((tx) => enqueueMail(tx, ...submission(n, "victim@example.com"))));
    written.push(await conn.db.transaction((tx) => enqueueMail(tx, ...submission(5, "someone.else@example.com"))));

    expect(written.map((ids) => ids.length)).toEqual([2, 2, 2, 1, 2]);
    const mails = await outbox();
    expect(mails.filter((m) => m.kind === "company").map((m) => m.source_id)).toEqual([1, 2, 3, 4, 5]);
    expect(mails.filter((m) => m.kind === "confirmation").map((m) => [m.to, m.source_id])).toEqual([
      ["victim@example.com", 1],
      ["victim@example.com", 2],
      ["victim@example.com", 3],
      ["someone.else@example.com", 5],
    ]);
    // In order: each submission's company copy first, then its confirmation.
    expect(mails.map((m) => m.source_id)).toEqual([1, 1, 2, 2, 3, 3, 4, 5, 5]);
  });

  it("counts the address whatever its case, and over a rolling 24 hours", async () => {
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(1, "Victim@Example.com")));
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(2, "VICTIM@example.COM")));
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(3, "victim@example.com")));
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(4, "victim@EXAMPLE.com")));
    expect((await outbox()).filter((m) => m.kind === "confirmation").map((m) => m.source_id)).toEqual([1, 2, 3]);

    // Yesterday's confirmations still count until 24 hours have passed...
    await conn.db.execute(sql`update outbox set created_at = now() - interval '23 hours'`);
    await conn.db.execute(sql`delete from rate_limits`); // as after midnight UTC: a new day's counter
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(5, "victim@example.com")));
    expect((await outbox()).filter((m) => m.kind === "confirmation")).toHaveLength(3);
    // ...and no longer once they have.
    await conn.db.execute(sql`update outbox set created_at = now() - interval '25 hours'`);
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(6, "victim@example.com")));
    expect((await outbox()).filter((m) => m.kind === "confirmation").map((m) => m.source_id)).toEqual([1, 2, 3, 6]);
  });

  it("counts per mailbox: a +tag in the local part is the same mailbox (a+1@… to a+4@…: three confirmations)", async () => {
    for (let n = 1; n <= 4; n++)
      await conn.db.transaction((tx) => enqueueMail(tx, ...submission(n, `victim+${n}@example.org`)));
    const confirmations = (await outbox()).filter((m) => m.kind === "confirmation");
    // Each mail still goes to the address as typed; only the count is per mailbox.
    expect(confirmations.map((m) => [m.to, m.source_id])).toEqual([
      ["victim+1@example.org", 1],
      ["victim+2@example.org", 2],
      ["victim+3@example.org", 3],
    ]);
    // After victim@example.org itself has had three, a tagged address gets no fourth.
    await conn.db.execute(sql`delete from outbox`);
    await conn.db.execute(sql`delete from rate_limits`);
    for (let n = 1; n <= 3; n++)
      await conn.db.transaction((tx) => enqueueMail(tx, ...submission(n, "victim@example.org")));
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(4, "Victim+1@Example.org")));
    expect((await outbox()).filter((m) => m.kind === "confirmation").map((m) => m.source_id)).toEqual([1, 2, 3]);
  });

  it("counts per mailbox: Gmail ignores dots and googlemail.com is gmail.com, whatever the case", async () => {
    const addresses = [
      "jane.doe@gmail.com",
      "JaneDoe@GMail.com",
      "j.a.n.e.d.o.e+shop@googlemail.com",
      "janedoe@gmail.com",
    ];
    for (const [i, to] of addresses.entries())
      await conn.db.transaction((tx) => enqueueMail(tx, ...submission(i + 1, to)));
    expect((await outbox()).filter((m) => m.kind === "confirmation").map((m) => [m.to, m.source_id])).toEqual([
      ["jane.doe@gmail.com", 1],
      ["JaneDoe@GMail.com", 2],
      ["j.a.n.e.d.o.e+shop@googlemail.com", 3],
    ]);
    // Dots are only ignored at Gmail: elsewhere they name another mailbox.
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(5, "jane.doe@example.org")));
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(6, "janedoe@example.org")));
    expect((await outbox()).filter((m) => m.kind === "confirmation").map((m) => m.source_id)).toEqual([1, 2, 3, 5, 6]);
  });

  it("a rolled-back submission does not use up the address's confirmations", async () => {
    for (let n = 1; n <= 3; n++) {
      await conn.db
        .transaction(async (tx) => {
          await enqueueMail(tx, ...submission(n, "victim@example.com"));
          throw new Error("the handler failed");
        })
        .catch(() => {});
    }
    await conn.db.transaction((tx) => enqueueMail(tx, ...submission(4, "victim@example.com")));
    expect((await outbox()).map((m) => [m.kind, m.source_id])).toEqual([
      ["company", 4],
      ["confirmation", 4],
    ]);
  });

  it("holds under concurrency: twelve simultaneous submissions to one address give three confirmations", async () => {
    // On PostgreSQL these are twelve transactions on separate connections at
    // once (PGlite runs them one after another): none sees another's
    // uncommitted row, the per-day counter's row lock makes them count in turn.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        conn.db.transaction((tx) => enqueueMail(tx, ...submission(i + 1, "victim@example.com"))),
      ),
    );
    expect(results.flat()).toHaveLength(12 + 3);
    const mails = await outbox();
    expect(mails.filter((m) => m.kind === "company")).toHaveLength(12);
    expect(mails.filter((m) => m.kind === "confirmation")).toHaveLength(3);
    if (usingServer()) console.log("[confirmation cap] 12 concurrent transactions on PostgreSQL: 3 confirmations");
  });

  it("MAIL_CONFIRMATIONS_PER_DAY=0 sends none; the company copy still goes", async () => {
    const e = env();
    const before = e.MAIL_CONFIRMATIONS_PER_DAY;
    Object.assign(e, { MAIL_CONFIRMATIONS_PER_DAY: 0 });
    try {
      await conn.db.transaction((tx) => enqueueMail(tx, ...submission(1, "ada@example.com")));
    } finally {
      Object.assign(e, { MAIL_CONFIRMATIONS_PER_DAY: before });
    }
    expect((await outbox()).map((m) => m.kind)).toEqual(["company"]);
  });
});

describe("retention of sent bodies", () => {
  it("clears the text of mail sent, or given up on, over MAIL_RETENTION_DAYS ago; the row, its status and recipient stay; pending and recent ones are untouched", async () => {
    const mails: OutgoingMail[] = ["old", "recent", "pending", "failed", "recentfailed"].map((label) => ({
      to: `${label}@example.com`,
      subject: `Mail ${label}`,
      text: `Body ${label}: SSN ***-**-6789, the whole application`,
      html: `<p>Body ${label}</p>`,
    }));
    const [oldId, recentId, pendingId, failedId, recentFailedId] = await enqueueMail(conn.db, ...mails);
    await conn.db.execute(
      sql`update outbox set status = 'sent', sent_at = now() - interval '31 days', created_at = now() - interval '31 days' where id = ${oldId}`,
    );
    await conn.db.execute(
      sql`update outbox set status = 'sent', sent_at = now() - interval '29 days', created_at = now() - interval '29 days' where id = ${recentId}`,
    );
    await conn.db.execute(
      sql`update outbox set status = 'failed', attempts = 8, created_at = now() - interval '40 days' where id = ${failedId}`,
    );
    await conn.db.execute(sql`update outbox set created_at = now() - interval '40 days' where id = ${pendingId}`);
    await conn.db.execute(
      sql`update outbox set status = 'failed', attempts = 8, created_at = now() - interval '29 days' where id = ${recentFailedId}`,
    );

    await clearSentBodies(conn.db, env().MAIL_RETENTION_DAYS);
    const byTo = Object.fromEntries((await outbox()).map((m) => [m.to, m]));
    expect(byTo["old@example.com"]).toMatchObject({ status: "sent", subject: "Mail old", text: "", html: null });
    expect(byTo["old@example.com"]!.cleared_at).not.toBeNull();
    // A mail the worker gave up on holds the same text (a booking's link among it): cleared as well.
    expect(byTo["failed@example.com"]).toMatchObject({
      status: "failed",
      subject: "Mail failed",
      text: "",
      html: null,
    });
    expect(byTo["failed@example.com"]!.cleared_at).not.toBeNull();
    for (const label of ["recent", "pending", "recentfailed"]) {
      expect(byTo[`${label}@example.com`]).toMatchObject({
        text: expect.stringContaining(`Body ${label}`),
        html: `<p>Body ${label}</p>`,
        cleared_at: null,
      });
    }
    expect(byTo["recentfailed@example.com"]!.status).toBe("failed");
    expect(byTo["pending@example.com"]!.status).toBe("pending");

    // A second run changes nothing (the cleared row keeps its first clearing time).
    const clearedAt = byTo["old@example.com"]!.cleared_at;
    await clearSentBodies(conn.db, 30);
    expect((await outbox()).find((m) => m.id === oldId)!.cleared_at).toEqual(clearedAt);
  });
});

describe("rate-limit rows", () => {
  it("carry the end of their window and are counted within it", async () => {
    const rule = { max: 2, windowSeconds: 600 };
    const now = Date.UTC(2025, 5, 1, 12, 3, 20);
    expect(await takeRateLimit(conn.db, "contact:192.0.2.1", rule, now)).toEqual({
      allowed: true,
      retryAfterSeconds: 400,
    });
    expect((await takeRateLimit(conn.db, "contact:192.0.2.1", rule, now + 1000)).allowed).toBe(true);
    expect(await takeRateLimit(conn.db, "contact:192.0.2.1", rule, now + 2000)).toEqual({
      allowed: false,
      retryAfterSeconds: 398,
    });
    // The next window starts afresh.
    expect((await takeRateLimit(conn.db, "contact:192.0.2.1", rule, now + 400_000)).allowed).toBe(true);

    const counters = await conn.db.select().from(rateLimits).orderBy(rateLimits.windowStart);
    expect(counters.map((c) => [c.windowStart.toISOString(), c.expiresAt.toISOString(), c.count])).toEqual([
      ["2025-06-01T12:00:00.000Z", "2025-06-01T12:10:00.000Z", 3],
      ["2025-06-01T12:10:00.000Z", "2025-06-01T12:20:00.000Z", 1],
    ]);
  });
});
