import type { Connection } from "@db/client.server";

/**
 * Points the server's one connection (app/lib/db.server.ts keeps it on globalThis, one per process:
 * vitest runs each file in its own) at this file's test database, so that the shop's route loaders
 * and actions, which ask `getDb()`, run against it as they do in the server.
 */
export function routesUse(conn: Connection): void {
  const states = globalThis as { [key: symbol]: { connection?: Promise<Connection>; closed: boolean } | undefined };
  const state = (states[Symbol.for("dover-doors.db")] ??= { closed: false });
  state.connection = Promise.resolve(conn);
}
