import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@db/client.server";
import { locations, reviews } from "@db/schema";

/** The embedded default on disk: npm test's PGlite pass only (the pass on the server excludes *.pglite.test.ts). */
describe("embedded database on disk", () => {
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
