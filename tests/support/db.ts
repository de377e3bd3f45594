import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type Connection, type OpenOptions } from "@db/client.server";

/**
 * A fresh, migrated database for one test file: an in-memory PGlite by
 * default, or a new database on the PostgreSQL server named by DATABASE_URL
 * (dropped again by `close`). Never a mock.
 */
export async function createTestDatabase(
  opts: { seed?: boolean; logger?: OpenOptions["logger"] } = {},
): Promise<Connection & { url?: string }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({ seed: opts.seed ?? true, logger: opts.logger });

  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const conn = await openDatabase({ databaseUrl: url.toString(), seed: opts.seed ?? true, logger: opts.logger });
  return {
    ...conn,
    /** For a second connection of the test's own (a held lock, a terminated backend). */
    url: url.toString(),
    async close() {
      await conn.close();
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

export const usingServer = () => Boolean(process.env.DATABASE_URL);
