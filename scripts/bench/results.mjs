// What a bench run leaves behind: its files in bench-results/, and the pieces its tables and
// files share (the commit, the database, the targets met or not).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { serverUrl } from "./args.mjs";

/** Writes `data` to bench-results/<name> as indented JSON, and says so. */
export function writeResult(name, data) {
  mkdirSync("bench-results", { recursive: true });
  writeFileSync(`bench-results/${name}`, JSON.stringify(data, null, 2));
  console.log(`written bench-results/${name}`);
}

/** The commit measured (short hash). */
export function gitCommit() {
  return spawnSync("git", ["rev-parse", "--short", "HEAD"]).stdout?.toString().trim();
}

/** The database benched on, as a heading names it. */
export function databaseHeading() {
  return serverUrl ? "PostgreSQL server" : "PGlite";
}

/** The database benched on, as a results file records it. */
export function databaseKind() {
  return serverUrl ? "postgres" : "pglite";
}

/** Prints targets ([target, value, met] each) as a table, met as "yes" or "NO". */
export function printTargets(targets) {
  console.table(targets.map(([target, value, met]) => ({ target, value, met: met ? "yes" : "NO" })));
}

/** Targets ([target, value, met] each) as a results file records them. */
export function targetsJson(targets) {
  return targets.map(([target, value, met]) => ({ target, value, met }));
}
