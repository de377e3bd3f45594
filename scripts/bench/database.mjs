// The scratch database a bench run works on: a new database on DATABASE_URL's server when that is
// set (dropped at the end), else PGlite's folder (BENCH_DATA_DIR) emptied for the server to fill.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import postgres from "postgres";
import { SOCKET_PORT, dataDir, serverUrl } from "./args.mjs";

let benchDbName;
let benchDbUrl;

/** Makes the scratch database: a new one on DATABASE_URL's server, or PGlite's folder emptied. */
export async function createScratchDatabase() {
  if (serverUrl) {
    benchDbName = `bench_${Date.now().toString(36)}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${benchDbName}"`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${benchDbName}`;
    benchDbUrl = u.toString();
    // Migrated as a release migrates it (fly.toml's release_command) before the server starts: the
    // start measured is a machine's start on a migrated database.
    const migrated = spawnSync(process.execPath, ["scripts/migrate.mjs"], {
      env: { ...process.env, DATABASE_URL: benchDbUrl },
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (migrated.status !== 0) throw new Error("the release migration of the scratch database failed");
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The scratch database on DATABASE_URL's server goes, whatever happened. */
export async function dropBenchDatabase() {
  if (!benchDbName) return;
  await new Promise((r) => setTimeout(r, 500));
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${benchDbName}" with (force)`).catch(() => {});
  await admin.end();
}

/** The scratch database's URL on DATABASE_URL's server; undefined on PGlite. */
export function scratchDatabaseUrl() {
  return benchDbUrl;
}

/** Where a client of the bench reaches its database: the scratch one, or the server's PGlite socket. */
export function databaseUrl() {
  return benchDbUrl ?? `postgres://postgres@127.0.0.1:${SOCKET_PORT}/postgres?sslmode=disable`;
}
