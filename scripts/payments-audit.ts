/**
 * `npm run payments:audit` (issue 36 item 6): every ledger row against the card processor's own
 * record (the sandbox's books, or Authorize.net's look-ups with its keys set), and every booking,
 * order and invoice payment against its ledger. Prints each mismatch and exits 1 on any.
 *
 * The database: DATABASE_URL; else the running site's share of its embedded database
 * (127.0.0.1:DB_SOCKET_PORT, one connection); else the embedded folder itself (DATA_DIR), when
 * the site is not running. `--since=2026-11-01` audits rows created since that day (default: all).
 */
import net from "node:net";

const sinceArg = process.argv.find((a) => a.startsWith("--since="))?.slice("--since=".length);
const since = sinceArg ? new Date(sinceArg) : new Date(0);
if (Number.isNaN(since.getTime())) {
  console.error(`--since: not a date: ${sinceArg}`);
  process.exit(2);
}

if (!process.env.DATABASE_URL) {
  const port = Number(process.env.DB_SOCKET_PORT ?? 5433);
  if (port > 0 && (await listening(port))) {
    process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
    process.env.DATABASE_POOL_MAX = "1";
  }
}
process.env.LOG_LEVEL ??= "warn";
process.env.DB_SOCKET_PORT = "0";

const { getDb, closeDatabase } = await import("../app/lib/db.server");
const { auditPayments } = await import("../server/ledger");
const db = await getDb();
const mismatches = await auditPayments(db, { since });
for (const m of mismatches)
  console.log(`MISMATCH ${m.where}: ${m.problem}${m.since ? ` (since ${m.since.toISOString()})` : ""}`);
console.log(`payments audit: ${mismatches.length} ${mismatches.length === 1 ? "mismatch" : "mismatches"}`);
await closeDatabase();
process.exit(mismatches.length === 0 ? 0 : 1);

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}
