import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { reviewsStored } from "~/lib/cache.server";
import { getShellData } from "~/shell/shell-data.server";
import { createTestDatabase } from "../support/db";

/**
 * Every page's content is in the code; only the footer (locations, reviews)
 * comes from the database. A database outage must not take the pages down
 * with it: they keep the footer data they last had.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: true });
});
afterAll(async () => {
  await conn?.close();
});

describe("footer data during a database outage", () => {
  it("keeps the last footer data when the database cannot be reached", async () => {
    reviewsStored();
    const good = await getShellData(conn.db);
    expect(good.locations.length).toBeGreaterThan(0);

    reviewsStored();
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(await getShellData(Promise.reject(refused))).toEqual(good);
  });
});
