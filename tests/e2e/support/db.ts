import postgres from "postgres";
import { e2eDatabaseUrl } from "./server";

/**
 * Read what landed in the e2e server's database. With the embedded database
 * this goes through the server's own wire-protocol share (never the folder).
 */
let client: postgres.Sql | undefined;

export function e2eSql(): postgres.Sql {
  client ??= postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {}, idle_timeout: 5 });
  return client;
}

export async function closeE2eSql(): Promise<void> {
  await client?.end({ timeout: 2 });
  client = undefined;
}
