/**
 * `npm run db:migrate` (a development tool, run with tsx): applies the
 * migrations and the seed to DATABASE_URL, or to the embedded database in
 * DATA_DIR when the site is not running. The site itself migrates and seeds
 * at start (db/client.server.ts); a release on fly runs scripts/migrate.mjs
 * instead (fly.toml's release_command: plain JavaScript, migrations only).
 */
import { openDatabase } from "./client.server";
import { parseEnv } from "../app/lib/env.server";

const env = parseEnv();
const conn = await openDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  socketPort: 0,
  seed: true,
});
console.log(`migrations applied (${conn.kind})`);
await conn.close();
