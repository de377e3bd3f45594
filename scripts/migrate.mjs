#!/usr/bin/env node
// Release-time migrations for a PostgreSQL server (fly.toml's release_command).
// Plain JavaScript so it runs in the production image without dev tools.
// Takes the same advisory lock as the app's start-up migration
// (db/client.server.ts), so a release and a starting machine take turns.
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import path from "node:path";
import postgres from "postgres";

const MIGRATION_LOCK = 7_362_201; // same constant as db/client.server.ts
const url = process.env.DATABASE_URL;
if (!url) {
  console.log("DATABASE_URL is not set: the embedded database migrates itself when the site starts.");
  process.exit(0);
}
const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");
const sql = postgres(url, { max: 1, onnotice: () => {} });
try {
  await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
  await migrate(drizzle(sql), { migrationsFolder });
  await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  console.log("migrations applied");
} finally {
  await sql.end({ timeout: 5 });
}
