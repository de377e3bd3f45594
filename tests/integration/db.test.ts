import { asc, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ping, toCount, type Connection } from "@db/client.server";
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
