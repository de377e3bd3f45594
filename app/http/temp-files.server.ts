import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp, open, readdir, rm, stat, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { BodyError, UPLOADS_RETRY_AFTER_SECONDS, UPLOADS_UNAVAILABLE_MESSAGE } from "./body.server";

/**
 * The temporary files of uploads in flight, their folder and the disk they
 * may take (issue 15, issue 28 item 6).
 *
 * Temporary files live in `uploadTempDir()` from the moment they arrive until
 * the caller's `cleanup()` (the form pipeline calls it when it is done, after
 * the transaction, retries included). A body refused while it is read cleans
 * up at once; a process-wide sweep removes anything older than half an hour,
 * and the folder goes at exit and, for a process that died, at the next start.
 * TMPDIR should be on disk: on a tmpfs, files in flight would count as memory.
 *
 * The bytes of all temporary files in flight, process-wide, stay within
 * UPLOAD_TEMP_BUDGET_BYTES: a write that would pass it is refused with a 503
 * (Retry-After), as is one the disk refuses (multipart.server.ts).
 */

/** The 503 of uploads we have no room for; its Retry-After says when to try again. */
export function uploadsUnavailable() {
  return new BodyError(503, UPLOADS_UNAVAILABLE_MESSAGE, UPLOADS_RETRY_AFTER_SECONDS);
}

// ── The folder ──────────────────────────────────────────────────────

const TEMP_PREFIX = "form-uploads-";
/** Older than this, a temporary file is an orphan (no request lives this long): the sweep removes it. */
const ORPHAN_AGE_MS = 30 * 60_000;
const SWEEP_EVERY_MS = 5 * 60_000;

let createdDir: string | null = null;
let ready: Promise<string> | undefined;
/** Every folder this process made (one, unless it was removed under us): removed at exit. */
const madeDirs = new Set<string>();
/** The exit handler and the sweep, set up with the first folder. */
let started = false;

/**
 * This process's folder of uploads in flight, once the first one has arrived
 * (null before): `form-uploads-<pid>-<random>` under the OS temporary folder
 * (TMPDIR), made by mkdtemp (mode 0700, a name nobody can take first).
 */
export function uploadTempDir(): string | null {
  return createdDir;
}

/**
 * Creates the folder on first use, after clearing what dead processes left;
 * again after a failure (a full disk) or once it has gone (`forgetTempDir`):
 * nothing about it stays broken.
 */
function tempDir(): Promise<string> {
  ready ??= (async () => {
    await removeDeadProcessFolders();
    const dir = await mkdtemp(path.join(os.tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    madeDirs.add(dir);
    if (!started) {
      started = true;
      process.once("exit", () => madeDirs.forEach((made) => rmSync(made, { recursive: true, force: true })));
      setInterval(() => void sweepOrphans(), SWEEP_EVERY_MS).unref();
    }
    createdDir = dir;
    return dir;
  })().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

/** The folder is gone (a TMPDIR cleaner, an operator): the next file makes a new one. */
function forgetTempDir(dir: string) {
  if (createdDir !== dir) return;
  createdDir = null;
  ready = undefined;
  madeDirs.delete(dir);
}

/** Removes the folders of processes that died without removing theirs. */
async function removeDeadProcessFolders() {
  const root = os.tmpdir();
  const entries = await readdir(root).catch(() => [] as string[]);
  for (const name of entries) {
    const pid = Number(new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true }).catch(() => {});
  }
}

/** Whether a process of that id is running (ours or someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
}

/** Removes this process's temporary files older than ORPHAN_AGE_MS, giving their bytes back. */
async function sweepOrphans() {
  const dir = createdDir;
  if (!dir) return;
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > ORPHAN_AGE_MS) {
      await rm(file, { force: true }).catch(() => {});
      release(file);
      log.warn({ file: name }, "removed an orphaned upload file (a request did not clean up)");
    }
  }
}

// ── The disk budget ─────────────────────────────────────────────────

/** Bytes reserved per temporary file in flight, process-wide, and their sum. */
const reserved = new Map<string, number>();
let reservedBytes = 0;

/** Bytes of temporary upload files in flight in this process (written, not yet removed). */
export function uploadTempBytes(): number {
  return reservedBytes;
}

/**
 * Reserves `bytes` for `file` before they are written; past
 * UPLOAD_TEMP_BUDGET_BYTES the body is refused (503, Retry-After) instead.
 */
function reserve(file: string, bytes: number) {
  const budget = env().UPLOAD_TEMP_BUDGET_BYTES;
  if (reservedBytes + bytes > budget) {
    log.warn({ inFlight: reservedBytes, budget }, "upload temp-file budget reached: answered 503");
    throw uploadsUnavailable();
  }
  reserved.set(file, (reserved.get(file) ?? 0) + bytes);
  reservedBytes += bytes;
}

/** Gives back what `file` reserved (it was removed); safe to call more than once. */
function release(file: string) {
  reservedBytes -= reserved.get(file) ?? 0;
  reserved.delete(file);
}

// ── The files ───────────────────────────────────────────────────────

/** One temporary file being written: each chunk's bytes are reserved from the budget first. */
export class TempFile {
  private handle: FileHandle | null = null;
  constructor(
    readonly path: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }
  /** Writes the whole chunk, its bytes reserved first (a BodyError 503 past the budget). */
  async write(chunk: Uint8Array) {
    reserve(this.path, chunk.byteLength);
    let at = 0;
    while (at < chunk.byteLength) {
      const { bytesWritten } = await this.handle!.write(chunk, at, chunk.byteLength - at);
      at += bytesWritten;
    }
  }
  /** Closes the file (it stays on disk); safe to call more than once. */
  async close() {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}

/** One body's temporary files. Removing one gives its bytes back to the budget. */
export class TempFiles {
  private open = new Map<string, TempFile>();
  private paths = new Set<string>();

  /** A new empty file in the folder (made again, once, if it was removed under us). */
  async create(): Promise<TempFile> {
    const dir = await tempDir();
    try {
      return await this.createIn(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      forgetTempDir(dir); // the folder was removed under us: make it again, once
      return await this.createIn(await tempDir());
    }
  }

  /** A new file of a random name in `dir`, owner-only, never one that exists already. */
  private async createIn(dir: string): Promise<TempFile> {
    const file = path.join(dir, randomUUID());
    this.paths.add(file);
    const handle = await open(file, "wx", 0o600);
    const temp = new TempFile(file, handle);
    this.open.set(file, temp);
    return temp;
  }

  /** Never throws: a file that cannot be removed now is the sweep's (its bytes are given back all the same). */
  async remove(file: string) {
    await this.open
      .get(file)
      ?.close()
      .catch(() => {});
    this.open.delete(file);
    this.paths.delete(file);
    release(file);
    await rm(file, { force: true }).catch((error: unknown) => {
      log.warn({ code: (error as NodeJS.ErrnoException).code }, "could not remove an upload's temporary file");
    });
  }

  /** Removes every file of this body; safe to call more than once. */
  async removeAll() {
    await Promise.all([...this.paths].map((file) => this.remove(file)));
  }
}
