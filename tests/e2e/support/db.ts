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

/**
 * Run one query over the simple protocol, with the parameters inlined as
 * literals. The embedded database's socket share (pglite-socket) queues each
 * wire message on its own, so the Parse/Bind/Execute of a parameterised query
 * can interleave with the server's own queries or another worker's and fail
 * ("bind message supplies 1 parameters, but prepared statement "" requires 5").
 * A simple-protocol query is a single message.
 */
export async function e2eQuery<T extends Record<string, unknown> = Record<string, unknown>>(
  text: string,
  params: (string | number | boolean | null)[] = [],
): Promise<T[]> {
  const literal = (v: string | number | boolean | null) =>
    v === null ? "null" : typeof v === "number" || typeof v === "boolean" ? String(v) : `'${v.replace(/'/g, "''")}'`;
  const sql = text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1] ?? null));
  return (await e2eSql().unsafe(sql).simple()) as unknown as T[];
}
