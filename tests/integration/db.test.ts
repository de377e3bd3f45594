import { asc, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, ping, toCount, type Connection } from "@db/client.server";
import { categories, locations, products, reviews } from "@db/schema";
import { seed } from "@db/seed";
import { createTestDatabase, usingServer } from "../support/db";

describe(`database (${usingServer() ? "PostgreSQL server" : "PGlite"})`, () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await createTestDatabase();
  });
  afterAll(async () => {
    await conn?.close();
  });

  it("migrates and seeds the fixed data: four locations, reviews, a catalogue", async () => {
    const rows = await conn.db.select().from(locations).orderBy(asc(locations.sort));
    expect(rows.map((l) => l.name)).toEqual(["Flint Showroom", "Saginaw Showroom", "Lansing", "Pontiac"]);
    expect(rows.filter((l) => l.hours).map((l) => l.slug)).toEqual(["flint", "saginaw"]);
    for (const l of rows) expect(l.phone).toMatch(/^\(\d{3}\) 555-01\d\d$/);

    const [{ n }] = (await conn.db.select({ n: sql`count(*)` }).from(reviews)) as [{ n: unknown }];
    expect(toCount(n)).toBeGreaterThanOrEqual(6);
    const cats = await conn.db.select().from(categories);
    const prods = await conn.db.select().from(products);
    expect(cats.length).toBeGreaterThan(0);
    expect(prods.every((p) => cats.some((c) => c.id === p.categoryId))).toBe(true);
  });

  it("seeding again changes nothing", async () => {
    const before = await conn.db.select({ n: sql`count(*)` }).from(locations);
    await seed(conn.db);
    await seed(conn.db);
    const after = await conn.db.select({ n: sql`count(*)` }).from(locations);
    expect(toCount(after[0]!.n)).toBe(toCount(before[0]!.n));
  });

  it("ping answers while open and fails once closed", async () => {
    const other = await createTestDatabase({ seed: false });
    expect(await ping(other.db)).toBe(true);
    await other.close();
    expect(await ping(other.db)).toBe(false);
  });
});

// Needs the PostgreSQL server of DATABASE_URL: npm test's run on it (its PGlite run reports it skipped).
/** `work(url)` on a new, empty database of DATABASE_URL's server, dropped after. */
async function withNewDatabase(prefix: string, work: (url: string) => Promise<void>): Promise<void> {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await work(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

describe.skipIf(!usingServer())("two instances starting at once on the PostgreSQL server", () => {
  it("take turns migrating and seeding (advisory lock): one copy of the seed", async () => {
    await withNewDatabase("t_race", async (url) => {
      const [a, b] = await Promise.all([
        openDatabase({ databaseUrl: url, seed: true }),
        openDatabase({ databaseUrl: url, seed: true }),
      ]);
      const rows = await a.db.select().from(locations);
      expect(rows).toHaveLength(4);
      await Promise.all([a.close(), b.close()]);
    });
  });

  it("a migrated, seeded database opens on one statement; one that lacks its seed is seeded again", async () => {
    await withNewDatabase("t_open", async (url) => {
      const open = async () => {
        const steps: string[] = [];
        const conn = await openDatabase({ databaseUrl: url, seed: true, onPhase: (step) => steps.push(step) });
        return { conn, steps };
      };
      const first = await open();
      expect(first.steps).toEqual(["check schema", "connect + advisory lock", "migrate", "seed"]);
      await first.conn.close();

      // As on fly.io after the release command: nothing to migrate, nothing to seed, no lock taken.
      const again = await open();
      expect(again.steps).toEqual(["check schema"]);
      await again.conn.db.delete(reviews);
      await again.conn.close();

      const reseeded = await open();
      expect(reseeded.steps).toEqual(["check schema", "connect + advisory lock", "migrate", "seed"]);
      const [{ n }] = (await reseeded.conn.db.select({ n: sql`count(*)` }).from(reviews)) as [{ n: unknown }];
      expect(toCount(n)).toBeGreaterThanOrEqual(6);
      await reseeded.conn.close();
    });
  });
});

// Its own PGlite on disk: npm test's PGlite run (its run on the PostgreSQL server reports it skipped, not run twice).
describe.skipIf(usingServer())("embedded database on disk", () => {
  it("keeps its data across a restart and is shared over the wire protocol", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "pglite-"));
    const port = 20000 + Math.floor(Math.random() * 20000);
    try {
      const first = await openDatabase({ dataDir: dir, socketPort: port, seed: true });
      expect(first.socketUrl).toContain(`:${port}/`);
      const viaSocket = postgres(first.socketUrl!, { max: 1, onnotice: () => {} });
      const [row] = await viaSocket`select count(*)::int as n from locations`;
      expect(row!.n).toBe(4);
      await viaSocket.end();
      await first.db.delete(reviews);
      await first.close();

      const second = await openDatabase({ dataDir: dir, socketPort: 0, seed: true });
      // Reviews were emptied, so the seed refills them; locations stay at four.
      expect(await second.db.select().from(locations)).toHaveLength(4);
      expect((await second.db.select().from(reviews)).length).toBeGreaterThan(0);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
