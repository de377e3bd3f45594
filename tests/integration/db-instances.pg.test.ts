import postgres from "postgres";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, toCount } from "@db/client.server";
import { locations, reviews } from "@db/schema";

/** Two instances of the site (fly.io) opening one new database at once: the PostgreSQL server only. */
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

describe("two instances starting at once on the PostgreSQL server", () => {
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
