import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { env } from "../app/lib/env.server";
import { stopwatch } from "./stopwatch";

/**
 * A new embedded database folder, fast.
 *
 * Creating a PGlite cluster (initdb) is slow and memory-hungry, so it runs once
 * in a short-lived child process that also applies the migrations and shuts
 * the cluster down cleanly. That folder is kept as a template, under a key
 * made of the PGlite version, the server settings and the migration files;
 * the next new data folder is a plain file copy of it (measured in
 * docs/decisions/009-pglite-template-databases.md). Postgres opens a copy of a
 * cleanly shut-down cluster like the original.
 *
 * The migrations still run after every open, so a template that lacks a newer
 * migration would only make the start slower, never the database wrong (a
 * changed migration set is a new key anyway: an old template is not used).
 * The seed is never part of the template: its review dates are relative to
 * the time it runs.
 *
 * Templates live in `PGLITE_TEMPLATE_DIR`, by default `node_modules/.cache/
 * pglite-template` beside the installed PGlite; `off` (or a folder that cannot
 * be written) initialises every new data folder from scratch, as before.
 */

/** Bump when what a template contains changes. */
const TEMPLATE_FORMAT = 1;
/** The last file copied: Postgres (and `openPglite`) treats a folder without it as empty. */
const MARKER = "PG_VERSION";
/** Entries every initialised cluster has; a folder holding them without PG_VERSION is left to initdb. */
const CLUSTER_ENTRIES = ["base", "global", "pg_wal", "pg_xact"];
/** Unfinished templates of crashed starts are removed after this long. */
const STALE_TMP_MS = 60 * 60 * 1000;

const require = createRequire(import.meta.url);

export type FolderOrigin = "template" | "initdb";

export type PrepareOptions = {
  migrationsFolder: string;
  /** postgresql.conf the server runs with (part of the template key). */
  conf: string;
  /** Folder of templates; `false` turns templates off. Default: see above. */
  templateRoot?: string | false;
  onPhase?: (phase: string, ms: number) => void;
};

/** Creates a migrated, empty cluster in `dir` (which has no PG_VERSION yet). */
export async function createPgliteFolder(dir: string, opts: PrepareOptions): Promise<FolderOrigin> {
  const phase = stopwatch(opts);
  const root = templateRootOf(opts);
  const key = root && !CLUSTER_ENTRIES.some((e) => existsSync(path.join(dir, e))) ? templateKey(opts) : undefined;
  if (!root || !key) {
    await initPgliteFolder(dir, opts);
    phase("initdb + migrations (child process)");
    return "initdb";
  }
  const existing = path.join(root, key);
  if (isCleanCluster(existing)) {
    try {
      copyCluster(existing, dir);
      phase("copy template");
      return "template";
    } catch {
      // Removed under our feet (pruned by another start): make a new one below.
    }
  }
  const template = await makeTemplate(root, key, opts);
  phase("initdb + migrations (new template, child process)");
  try {
    if (template) {
      copyCluster(template, dir);
      phase("copy new template");
      return "initdb";
    }
  } catch {
    // Pruned between its publication and this copy (a start with other migrations): as below.
  }
  await initPgliteFolder(dir, opts); // read-only install: no template
  phase("initdb + migrations (child process)");
  return "initdb";
}

/**
 * Makes sure the template of the current migrations exists, without opening any database:
 * `npm start` runs it beside a new checkout's first build (scripts/start.mjs), so that the
 * server's first start copies a template instead of running initdb (issue 39). Resolves to the
 * template's folder, or undefined when templates are off or cannot be written.
 */
export async function prepareTemplate(opts: PrepareOptions): Promise<string | undefined> {
  const root = templateRootOf(opts);
  const key = root && templateKey(opts);
  if (!root || !key) return undefined;
  const existing = path.join(root, key);
  if (isCleanCluster(existing)) return existing;
  return makeTemplate(root, key, opts);
}

function templateRootOf(opts: PrepareOptions): string | undefined {
  return opts.templateRoot === undefined ? defaultTemplateRoot() : opts.templateRoot || undefined;
}

/**
 * initdb and the migrations in a new folder beside the templates, published under `key`
 * atomically: a broken template under the key goes first; when another start has just published
 * a good one, ours is dropped. Undefined when the folder of templates cannot be written.
 */
async function makeTemplate(root: string, key: string, opts: PrepareOptions): Promise<string | undefined> {
  let tmp: string;
  try {
    mkdirSync(root, { recursive: true });
    tmp = await mkdtemp(path.join(root, "tmp-"));
  } catch {
    return undefined;
  }
  try {
    await initPgliteFolder(tmp, opts);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  const template = path.join(root, key);
  if (existsSync(template) && !isCleanCluster(template)) await discard(template).catch(() => {});
  await rename(tmp, template).catch(() => rm(tmp, { recursive: true, force: true }));
  void pruneTemplates(root, key).catch(() => {});
  return isCleanCluster(template) ? template : undefined;
}

/** The folder whose node_modules holds PGlite (the child resolves its imports from there). */
function installRoot(): string | undefined {
  try {
    const entry = require.resolve("@electric-sql/pglite");
    const i = entry.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    return i < 0 ? undefined : entry.slice(0, i);
  } catch {
    return undefined;
  }
}

function defaultTemplateRoot(): string | undefined {
  const setting = env().PGLITE_TEMPLATE_DIR;
  if (setting === "off") return undefined;
  if (setting) return path.resolve(setting);
  const root = installRoot();
  return root && path.join(root, "node_modules", ".cache", "pglite-template");
}

/** Hash of everything a template depends on; undefined (no template) when unreadable. */
function templateKey(opts: PrepareOptions): string | undefined {
  try {
    const pkgFile = path.join(path.dirname(require.resolve("@electric-sql/pglite")), "..", "package.json");
    const { version } = JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string };
    const hash = createHash("sha256").update(`format ${TEMPLATE_FORMAT}\npglite ${version}\n${opts.conf}\n`);
    hash.update(readFileSync(path.join(opts.migrationsFolder, "meta", "_journal.json")));
    for (const file of readdirSync(opts.migrationsFolder)
      .filter((f) => f.endsWith(".sql"))
      .sort()) {
      hash.update(`\n${file}\n`).update(readFileSync(path.join(opts.migrationsFolder, file)));
    }
    return `v${TEMPLATE_FORMAT}-${hash.digest("hex").slice(0, 32)}`;
  } catch {
    return undefined;
  }
}

/** PG_VERSION present and pg_control says "shut down" (DBState 1 at byte 16). */
function isCleanCluster(dir: string): boolean {
  try {
    if (!existsSync(path.join(dir, MARKER))) return false;
    return readFileSync(path.join(dir, "global", "pg_control")).readUInt32LE(16) === 1;
  } catch {
    return false;
  }
}

/**
 * Copies a closed cluster into `to`, PG_VERSION last; on failure removes what
 * it copied. Synchronous on purpose: ~1,000 small files copy in ~0.1 s this
 * way, three to four times faster than with fs.promises.cp, and nothing else
 * can happen before the database is open anyway.
 */
function copyCluster(from: string, to: string): void {
  const entries = readdirSync(from).filter((e) => e !== MARKER);
  try {
    for (const e of entries) cpSync(path.join(from, e), path.join(to, e), { recursive: true, force: true });
    cpSync(path.join(from, MARKER), path.join(to, MARKER));
  } catch (error) {
    for (const e of [MARKER, ...entries]) rmSync(path.join(to, e), { recursive: true, force: true });
    throw error;
  }
}

/** Removes templates of other keys and unfinished ones left by crashed starts. */
async function pruneTemplates(root: string, keep: string): Promise<void> {
  for (const name of await readdir(root)) {
    const full = path.join(root, name);
    if (name === keep) continue;
    if (name.startsWith("tmp-")) {
      const { mtimeMs } = await stat(full);
      if (Date.now() - mtimeMs < STALE_TMP_MS) continue;
    } else if (!/^v\d+-[0-9a-f]{32}$/.test(name)) continue;
    await discard(full);
  }
}

/** Renamed first, so no start copies from a half-deleted template. */
async function discard(template: string): Promise<void> {
  const doomed = await mkdtemp(path.join(path.dirname(template), "tmp-old-"));
  await rename(template, path.join(doomed, "t"));
  await rm(doomed, { recursive: true, force: true });
}

/**
 * initdb leaves much memory resident in the process that ran it
 * (docs/decisions/003-pglite-memory.md), so it runs in a short-lived child, which then applies the migrations and closes the cluster.
 */
function initPgliteFolder(dir: string, opts: PrepareOptions): Promise<void> {
  const code = `import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
const [dir, migrationsFolder, conf] = process.argv.slice(1);
const db = new PGlite(dir, { postgresqlconf: conf });
await db.waitReady;
await migrate(drizzle(db), { migrationsFolder });
await db.close();`;
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code, dir, opts.migrationsFolder, opts.conf], {
      stdio: ["ignore", "ignore", "pipe"],
      cwd: installRoot() ?? process.cwd(),
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`PGlite init failed: ${err.slice(-500)}`))));
  });
}
