import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeTurns } from "./pglite-turns.server";

/** How many event-loop turns (setImmediate callbacks) ran while `work` was under way. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return turns;
}

const burst = (client: PGlite) =>
  Promise.all(Array.from({ length: 200 }, (_, i) => client.query<{ n: number }>("select $1::int as n", [i])));

describe("takeTurns (PGlite)", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  afterAll(async () => {
    await client.close();
  });

  it("lets the event loop run between queued queries, which PGlite alone does not", async () => {
    // The problem: 200 queued queries drain without the event loop getting a turn.
    const starved = await turnsDuring(() => burst(client));
    takeTurns(client);
    const served = await turnsDuring(() => burst(client));
    expect(starved).toBeLessThan(20);
    expect(served).toBeGreaterThanOrEqual(200);
  });

  it("keeps results, their order and errors as they were", async () => {
    const results = await burst(client);
    expect(results.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    await expect(client.query("select * from no_such_table")).rejects.toThrow(/no_such_table/);
    expect((await client.query<{ ok: number }>("select 1 as ok")).rows[0]!.ok).toBe(1);
  });

  it("runs a transaction as one turn: a query sent meanwhile waits until it has committed", async () => {
    await client.exec("create table t (v int)");
    let inside!: () => void;
    const insideStarted = new Promise<void>((resolve) => (inside = resolve));
    const tx = client.transaction(async (t) => {
      await t.query("insert into t values (1)");
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await t.query("insert into t values (2)");
    });
    await insideStarted;
    const seen = await client.query<{ n: number }>("select count(*)::int as n from t");
    await tx;
    expect(seen.rows[0]!.n).toBe(2);
  });
});
