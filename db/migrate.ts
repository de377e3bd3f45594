/**
 * `npm run db:migrate`: applies the migrations (and the seed) to DATABASE_URL,
 * or to the embedded database in DATA_DIR when the site is not running.
 * fly.toml runs it as the release command.
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
