import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { captchaSpent, carts, rateLimits } from "@db/schema";
import { spendToken } from "~/forms/captcha/spent.server";
import { takeRateLimit } from "~/http/rate-limit.server";
import { enqueueMail } from "~/mail/outbox.server";
import { startMaintenance, type Maintenance } from "../../server/maintenance";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";

/**
 * The server's housekeeping (server/maintenance.ts): when it starts and on
 * each round, sent bodies past their retention are cleared, ended rate-limit
 * windows, expired captcha tokens and expired carts go; live rows stay.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});
beforeEach(async () => {
  for (const table of ["outbox", "rate_limits", "captcha_spent", "carts"])
    await conn.db.execute(sql.raw(`delete from ${table}`));
});

const now = Date.now();
const DAY = 86_400_000;

/** One row of each kind that must go, and one of each that must stay. */
async function someOfEverything(): Promise<{ oldMail: number; liveMail: number; oldCart: string; liveCart: string }> {
  await takeRateLimit(conn.db, "contact:192.0.2.1", { max: 10, windowSeconds: 60 }, now - 5 * 60_000); // ended
  // Windows are aligned to the clock (a 600 s window ends at :00, :10, …): counted at a time ahead of
  // now, a window is sure to be running still when the housekeeping looks, whenever the test runs.
  await takeRateLimit(conn.db, "quote:192.0.2.2", { max: 10, windowSeconds: 86_400 }, now + 60 * 60_000); // a day's window: running
  await takeRateLimit(conn.db, "contact:192.0.2.3", { max: 10, windowSeconds: 600 }, now + 5 * 60_000); // current
  expect(await spendToken(conn.db, "sum:expired", new Date(now - 1000))).toBe(true);
  expect(await spendToken(conn.db, "sum:live", new Date(now + 30 * 60_000))).toBe(true);
  const [oldMail] = await enqueueMail(conn.db, { to: "old@example.com", subject: "Old", text: "Old body" });
  const [liveMail] = await enqueueMail(conn.db, { to: "new@example.com", subject: "New", text: "New body" });
  await conn.db.execute(
    sql`update outbox set status = 'sent', sent_at = now() - interval '31 days' where id = ${oldMail}`,
  );
  await conn.db.execute(
    sql`update outbox set status = 'sent', sent_at = now() - interval '29 days' where id = ${liveMail}`,
  );
  const [oldCart, liveCart] = await conn.db
    .insert(carts)
    .values([{ createdAt: new Date(now - 92 * DAY) }, { createdAt: new Date(now - 10 * DAY) }])
    .returning({ id: carts.id });
  return { oldMail: oldMail!, liveMail: liveMail!, oldCart: oldCart!.id, liveCart: liveCart!.id };
}

async function whatIsLeft() {
  return {
    rateLimits: (await conn.db.select().from(rateLimits)).map((r) => r.key).sort(),
    spentTokens: (await conn.db.select().from(captchaSpent)).length,
    bodies: Object.fromEntries(
      (await rows<{ id: number; text: string }>(conn.db, "select id, text from outbox")).map((m) => [m.id, m.text]),
    ),
    carts: (await conn.db.select({ id: carts.id }).from(carts)).map((c) => c.id),
  };
}

describe("the server's housekeeping", () => {
  let maintenance: Maintenance | undefined;
  afterAll(async () => {
    await maintenance?.stop();
  });

  it("runs when it starts and on demand: what has expired goes, what is live stays", async () => {
    const first = await someOfEverything();
    maintenance = startMaintenance(conn.db, { retentionDays: 30 });
    await maintenance.run(); // after the round the start began
    expect(await whatIsLeft()).toEqual({
      rateLimits: ["contact:192.0.2.3", "quote:192.0.2.2"],
      spentTokens: 1,
      bodies: { [first.oldMail]: "", [first.liveMail]: "New body" },
      carts: [first.liveCart],
    });

    // The next round finds new expired rows.
    await conn.db.execute(sql`update carts set created_at = now() - interval '100 days' where id = ${first.liveCart}`);
    await maintenance.run();
    expect((await whatIsLeft()).carts).toEqual([]);
  });

  it("a step that fails is logged and the others still run", async () => {
    const rowsOf = await someOfEverything();
    // The first step (the outbox's retention) cannot run while its table is missing.
    await conn.db.execute(sql`alter table outbox rename to outbox_away`);
    const broken = startMaintenance(conn.db, { retentionDays: 30 });
    try {
      await broken.stop(); // waits for the round the start began
    } finally {
      await conn.db.execute(sql`alter table outbox_away rename to outbox`);
    }
    expect(await whatIsLeft()).toEqual({
      rateLimits: ["contact:192.0.2.3", "quote:192.0.2.2"],
      spentTokens: 1,
      bodies: { [rowsOf.oldMail]: "Old body", [rowsOf.liveMail]: "New body" },
      carts: [rowsOf.liveCart],
    });
  });
});
