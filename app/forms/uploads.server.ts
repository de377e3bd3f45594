import { randomUUID } from "node:crypto";
import { createReadStream, openAsBlob, rmSync } from "node:fs";
import { mkdtemp, open, readdir, rm, stat, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { getTableName, sql } from "drizzle-orm";
import { fileTypeFromFile } from "file-type";
import type { Tx } from "@db/client.server";
import { uploads } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { MAX_PHOTOS_TOTAL_BYTES, megabytes, photosTotalMessage } from "./options";
import type { FormUploadRule } from "./identity";
import {
  BAD_MULTIPART_MESSAGE,
  BodyError,
  MAX_FIELDS,
  MAX_TEXT_BODY,
  MB,
  NOT_JSON_MESSAGE,
  TEXT_TOO_LARGE_MESSAGE,
  TOO_MANY_FIELDS_MESSAGE,
  UPLOADS_RETRY_AFTER_SECONDS,
  UPLOADS_UNAVAILABLE_MESSAGE,
  jsonToFormData,
  readChunks,
  readJson,
  readUrlEncoded,
} from "~/http/body.server";

export { BodyError } from "~/http/body.server";

/**
 * Reading a form body (urlencoded, multipart or JSON) and its files, in
 * bounded memory (issue 15). Text bodies go through body.server.ts's limits.
 * Multipart bodies are parsed as a stream by busboy, fed from body.server.ts's
 * counting reader (what is limited is the bytes read, whatever the client
 * declared); each file is judged as it arrives (how many, how large, how large
 * all together) and written straight to a temporary file, then judged by its
 * bytes (file-type), never by its name or declared type (DECISIONS 11). `storeUploads` copies each file into its row
 * from that file, one at a time, as binary: no file is ever held whole in
 * memory, nor hex-encoded.
 *
 * Temporary files live in `uploadTempDir()` from the moment they arrive until
 * the caller's `cleanup()` (the pipeline calls it when it is done, after the
 * transaction, retries included). A body refused while it is read cleans up
 * at once; a process-wide sweep removes anything older than half an hour, and
 * the folder goes at exit and, for a process that died, at the next start.
 * TMPDIR should be on disk: on a tmpfs, files in flight would count as memory.
 *
 * Disk is bounded too (issue 28 item 6). `beforeFiles` lets the caller run its
 * cheap checks (captcha, rate limit) before any file byte is written. The
 * bytes of all temporary files in flight, process-wide, stay within
 * UPLOAD_TEMP_BUDGET_BYTES: a write that would pass it, or one the disk
 * refuses (ENOSPC, EIO, EDQUOT…), ends the body at once with a 503 (Retry-After)
 * and removes its files; what is left of the body is read and dropped in the
 * background, so the answer never waits for it.
 */
/** A form's upload rule, as its identity declares it (app/forms/identity.ts). */
export type UploadRule = FormUploadRule;

/** 10 photos of 10 MB each stay the per-file rules; together they may not pass this (the browser checks it too). */
export const MAX_UPLOAD_TOTAL_BYTES = MAX_PHOTOS_TOTAL_BYTES;

/** A file that passed every rule, waiting in its temporary file for `storeUploads`. */
export type AcceptedUpload = { field: string; fileName: string; mime: string; size: number; path: string };

export type ParsedBody = {
  fields: FormData;
  uploads: AcceptedUpload[];
  /** Field name → messages (too many, too large, too large together, not an image). */
  uploadErrors: Record<string, string[]>;
  /** Removes this body's temporary files; safe to call more than once. */
  cleanup(): Promise<void>;
};

const IMAGE_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/heic",
  "image/heif",
  "image/avif",
  "image/bmp",
  "image/tiff",
]);

/** File parts beyond the rule's count are read (and dropped) up to this many more, then the body is refused. */
const EXTRA_FILE_PARTS = 25;
/**
 * The most a multipart body may carry. Past the 40 MB total, files are read
 * and dropped (never written) so the visitor gets a field message with the
 * other values kept; beyond twice that the body is refused outright (413).
 */
const MAX_MULTIPART_BODY = 2 * MAX_UPLOAD_TOTAL_BYTES + MAX_TEXT_BODY + MB;

function formatMb(bytes: number) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

const noCleanup = async () => {};

/** What became of one file: stored later, refused with a message, or nothing to say (dropped, empty). */
type FileOutcome = { upload: AcceptedUpload } | { error: string } | undefined;

export type ReadBodyOptions = {
  /**
   * The caller's cheap checks (captcha, rate limit…), run before any file
   * byte is written, exactly once per body that is read whole: in a multipart
   * body when its first file part arrives (reading waits for it), with the
   * text fields read so far (the quote API's 'data' JSON part already spread
   * into fields, as readBody returns them); in a body without files (JSON,
   * URL-encoded, multipart with no file part) once it has been read, with
   * all its fields. What it throws, readBody throws unchanged, having written
   * nothing and removed any temporary file; the rest of the body is dropped.
   * A body refused before that point (too large, malformed) never calls it.
   */
  beforeFiles?: (fields: FormData) => Promise<void>;
  /**
   * Told when a file the visitor chose arrives for the rule's field (a part with a file name; an
   * empty file input sends none), before any check: a refused post's page says the choice was dropped.
   */
  onFileChosen?: () => void;
};

export async function readBody(
  request: Request,
  rule?: UploadRule,
  options: ReadBodyOptions = {},
): Promise<ParsedBody> {
  const header = request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();

  if (type.startsWith("application/json")) {
    const fields = await readJson(request);
    await options.beforeFiles?.(fields);
    return { fields, uploads: [], uploadErrors: {}, cleanup: noCleanup };
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const fields = await readUrlEncoded(request);
    await options.beforeFiles?.(fields);
    return { fields, uploads: [], uploadErrors: {}, cleanup: noCleanup };
  }
  if (!type.startsWith("multipart/form-data")) {
    throw new BodyError(415, "Please send the form as multipart/form-data, URL-encoded fields or JSON.");
  }
  return readMultipart(request, header, rule, options);
}

/** The 503 of uploads we have no room for; its Retry-After says when to try again. */
function uploadsUnavailable() {
  return new BodyError(503, UPLOADS_UNAVAILABLE_MESSAGE, UPLOADS_RETRY_AFTER_SECONDS);
}

/** The quote API sends its fields as JSON in a 'data' part (SPEC §7): spread into `fields`. */
function spreadDataPart(fields: FormData, counted: { fields: number }) {
  const data = fields.get("data");
  if (typeof data !== "string" || !data.trim().startsWith("{")) return;
  fields.delete("data");
  try {
    jsonToFormData(data, fields, counted);
  } catch (error) {
    if (error instanceof BodyError && error.message === NOT_JSON_MESSAGE) {
      throw new BodyError(400, "The 'data' field is not valid JSON.");
    }
    throw error;
  }
}

async function readMultipart(
  request: Request,
  contentType: string,
  rule: UploadRule | undefined,
  { beforeFiles, onFileChosen }: ReadBodyOptions,
): Promise<ParsedBody> {
  const maxFiles = rule?.maxFiles ?? 0;
  const maxBytes = rule?.maxBytes ?? 0;
  const maxTotal = Math.min(rule?.maxTotalBytes ?? MAX_UPLOAD_TOTAL_BYTES, MAX_UPLOAD_TOTAL_BYTES);
  // Up to twice the per-file limit is read and answered with a field error; beyond it, 413.
  const hardFileCap = Math.max(maxBytes * 2, MB);
  const tooLargeEach = `Each photo must be ${megabytes(maxBytes)} or smaller.`;
  const names = new Set(rule ? [rule.field, ...(rule.aliases ?? [])] : []);
  const fileCap = maxFiles + EXTRA_FILE_PARTS;

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers send field and file names as raw UTF-8 (busboy assumes latin1); invalid bytes become U+FFFD.
      defParamCharset: "utf8",
      // Each limit is one past what is allowed, so reaching it means "too much", never "exactly enough".
      // A part's header block is bounded by busboy itself (16 KB, 2000 lines; not configurable in 1.6.0).
      limits: {
        fields: MAX_FIELDS,
        fieldSize: MAX_TEXT_BODY + 1,
        files: fileCap,
        fileSize: hardFileCap + 1,
        parts: MAX_FIELDS + fileCap + 1,
      },
    });
  } catch {
    throw new BodyError(400, BAD_MULTIPART_MESSAGE); // no boundary, or a content type busboy cannot read
  }

  const fields = new FormData();
  const counted = { fields: 0 };
  let textBytes = 0;
  const files = new TempFiles();
  /**
   * Each file's outcome, in the order the files came (their checks finish in any order).
   * Busboy's 'finish' waits for the file streams to be read, not for these.
   */
  const pending: Promise<FileOutcome>[] = [];
  /**
   * Our own reason to stop (a limit, the disk, the caller's beforeFiles): it wins over whatever busboy
   * says next, and the body is answered at once, whatever is left of it (read and dropped in the background).
   */
  let failure: unknown = null;
  let stopped!: (error: unknown) => void;
  const failed = new Promise<never>((_, reject) => (stopped = reject));
  failed.catch(() => {});
  const fail = (error: unknown) => {
    if (failure) return;
    failure = error;
    stopped(error);
    // Not from inside busboy's own event: it is in the middle of a chunk.
    process.nextTick(() => parser.destroy(error as Error));
  };
  parser.on("error", () => {}); // pipeline() reports it; one arriving after it has settled must not crash the process

  /** A temporary file we could not create or write: logged once for the body, answered 503. */
  let diskErrorLogged = false;
  const diskFailure = (error: unknown) => {
    if (error instanceof BodyError) return error; // the budget's own 503
    if (!diskErrorLogged) {
      diskErrorLogged = true;
      const { code, syscall, message } = error as NodeJS.ErrnoException;
      log.error({ code, syscall, message }, "could not write an upload's temporary file: answered 503, files removed");
    }
    return uploadsUnavailable();
  };

  /**
   * Settled once `beforeFiles` has run: when the first file part arrives (with the text fields read so
   * far) or, for a body without one, at its end. No file byte is read past busboy's buffer, let alone
   * written, before it resolves; when it throws, that error is the body's.
   */
  let checked = null as Promise<void> | null; // (not narrowed to null: it is set in a callback)
  const check = (snapshot: () => FormData): Promise<void> => {
    if (!checked) {
      checked = (async () => {
        if (beforeFiles) await beforeFiles(snapshot());
      })();
      checked.catch(fail);
    }
    return checked;
  };
  const fieldsSoFar = () => {
    const copy = new FormData();
    for (const [name, value] of fields) copy.append(name, value);
    spreadDataPart(copy, { ...counted });
    return copy;
  };
  let count = 0;
  let total = 0;
  let overTotal = false;

  parser.on("field", (name, value, info) => {
    if (failure) return;
    // A part may declare its own charset; one TextDecoder does not know comes back as undefined.
    if (typeof value !== "string") return fail(new BodyError(400, BAD_MULTIPART_MESSAGE));
    textBytes += Buffer.byteLength(name ?? "") + Buffer.byteLength(value);
    if (info.valueTruncated || textBytes > MAX_TEXT_BODY) return fail(new BodyError(413, TEXT_TOO_LARGE_MESSAGE));
    if (!name) return;
    counted.fields++;
    fields.append(name, value);
  });
  parser.on("fieldsLimit", () => fail(new BodyError(413, TOO_MANY_FIELDS_MESSAGE)));
  parser.on("partsLimit", () => fail(new BodyError(413, TOO_MANY_FIELDS_MESSAGE)));
  parser.on("filesLimit", () => fail(new BodyError(413, rule?.tooManyMessage ?? "Too many files.")));

  const receive = async (
    stream: Readable,
    info: busboy.FileInfo,
    field: string,
    ready: Promise<void>,
  ): Promise<FileOutcome> => {
    const fileName = (info.filename || "file-upload").slice(0, 200);
    const index = ++count;
    // Files past the rule's count are read and dropped; the "too many" message covers them.
    const kept = index <= maxFiles;
    let size = 0;
    let tooLarge = false;
    let file: TempFile | null = null;
    stream.on("limit", () => fail(new BodyError(413, tooLargeEach)));
    // Nothing is read (busboy waits) until the caller's checks have passed; if they threw, the body is over.
    const passed = await ready.then(
      () => true,
      () => false,
    );
    if (!passed) return undefined;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (!kept || failure) continue;
      total += chunk.byteLength;
      if (size > maxBytes) tooLarge = true;
      if (total > maxTotal) overTotal = true;
      if (tooLarge || overTotal) {
        // Nothing of this file (or any later one) will be stored: stop writing it.
        if (file) await files.remove(file.path);
        file = null;
        continue;
      }
      // A disk error never leaves this loop by throwing: busboy would wait for the stream's end forever.
      try {
        file ??= await files.create();
        await file.write(chunk);
      } catch (error) {
        fail(diskFailure(error)); // the chunks left are dropped; busboy is stopped on the next tick
      }
    }
    try {
      await file?.close();
    } catch (error) {
      fail(diskFailure(error)); // some file systems report a full disk or quota only on close
    }
    if (failure) return undefined;
    if (size === 0 && !info.filename) {
      count--; // an empty file input ("no file chosen") sends a part with no file name and no bytes
      return undefined;
    }
    if (!kept || failure) return undefined; // one message for the count, below
    if (tooLarge)
      return { error: `Each photo must be ${megabytes(maxBytes)} or smaller; "${fileName}" is ${formatMb(size)}.` };
    if (overTotal) return undefined; // one message for the total, below
    const detected = file ? await fileTypeFromFile(file.path).catch(() => undefined) : undefined;
    if (!file || !detected || !IMAGE_TYPES.has(detected.mime)) {
      if (file) await files.remove(file.path);
      return { error: `"${fileName}" is not an image. Please choose photos (JPEG, PNG, GIF, WebP or HEIC).` };
    }
    return { upload: { field, fileName, mime: detected.mime, size, path: file.path } };
  };

  parser.on("file", (name, stream, info) => {
    // When busboy is destroyed mid-file (a body cut short, too large), it destroys this stream with
    // the error: pipeline() below reports it, and an 'error' nobody listens to would end the process.
    stream.on("error", () => {});
    if (rule && name === rule.field && info.filename) onFileChosen?.();
    if (failure) return void stream.resume();
    // The first file part: the caller's checks run now, with the text fields so far (the forms put them first).
    const ready = check(fieldsSoFar);
    // Files go only where the rule sends them; the rest are read past (and count towards the limits).
    if (!rule || !names.has(name)) return void ready.finally(() => stream.resume()).catch(() => {});
    pending.push(
      receive(stream, info, rule.field, ready).catch((error: unknown) => {
        // A stream busboy broke (the parser is already failing) is pipeline()'s to report; anything
        // else must stop the body, or busboy would wait for this file's end forever.
        if (!parser.destroyed) fail(diskFailure(error));
        return undefined;
      }),
    );
  });

  let outcomes: FileOutcome[] = [];
  try {
    const parsing = pipeline(readChunks(request, MAX_MULTIPART_BODY), parser);
    parsing.catch(() => {}); // after a failure of ours it settles whenever the client sends again
    await Promise.race([parsing, failed]);
    outcomes = await Promise.all(pending);
    if (failure) throw failure;
    spreadDataPart(fields, counted);
    // A body without a file part: the caller's checks run now, with every field.
    await check(() => fields);
    if (failure) throw failure;
  } catch (error) {
    await Promise.all(pending); // (they never reject) no file may be created after the removal
    await checked?.catch(() => {});
    await files.removeAll();
    // Ours (a limit, the disk, beforeFiles' own error), the reader's (too large, unreadable), or busboy's (malformed: 400).
    throw failure ?? (error instanceof BodyError ? error : new BodyError(400, BAD_MULTIPART_MESSAGE));
  }

  const accepted = outcomes.flatMap((outcome) => (outcome && "upload" in outcome ? [outcome.upload] : []));
  const errors = outcomes.flatMap((outcome) => (outcome && "error" in outcome ? [outcome.error] : []));
  if (rule && count > maxFiles) errors.unshift(rule.tooManyMessage);
  if (rule && overTotal) {
    errors.push(photosTotalMessage(total, maxTotal));
  }
  const uploadErrors: Record<string, string[]> = {};
  if (rule && errors.length > 0) {
    uploadErrors[rule.field] = errors;
    await files.removeAll(); // nothing of a refused set is stored
  }
  return {
    fields,
    uploads: errors.length > 0 ? [] : accepted,
    uploadErrors,
    cleanup: () => files.removeAll(),
  };
}

// ── Temporary files ─────────────────────────────────────────────────

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

async function removeDeadProcessFolders() {
  const root = os.tmpdir();
  const entries = await readdir(root).catch(() => [] as string[]);
  for (const name of entries) {
    const pid = Number(new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true }).catch(() => {});
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, someone else's
  }
}

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

class TempFile {
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
  async close() {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }
}

/** One body's temporary files. Removing one gives its bytes back to the budget. */
class TempFiles {
  private open = new Map<string, TempFile>();
  private paths = new Set<string>();

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

  async removeAll() {
    await Promise.all([...this.paths].map((file) => this.remove(file)));
  }
}

// ── Storing ─────────────────────────────────────────────────────────

/**
 * The row's columns as COPY writes them; `data` last, so the file's bytes
 * follow the small values. Built from the Drizzle table, so a renamed column
 * is renamed here too.
 */
const COPY_COLUMNS = [
  [uploads.submissionTable, "text"],
  [uploads.submissionId, "int4"],
  [uploads.field, "text"],
  [uploads.fileName, "text"],
  [uploads.mime, "text"],
  [uploads.size, "int4"],
  [uploads.data, "bytea"],
] as const;
const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const COPY_TARGET = `${quoteIdent(getTableName(uploads))} (${COPY_COLUMNS.map(([column]) => quoteIdent(column.name)).join(", ")})`;

/** PostgreSQL's binary COPY signature, flags and header extension length. */
const COPY_SIGNATURE = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]); // int16 -1

/** Everything of one row up to the file's bytes: signature, field count, the small values, the file's length. */
function copyHead(upload: AcceptedUpload, submission: { table: string; id: number }): Buffer {
  const values: (string | number)[] = [
    submission.table,
    submission.id,
    upload.field,
    upload.fileName,
    upload.mime,
    upload.size,
  ];
  const parts: Buffer[] = [COPY_SIGNATURE];
  const count = Buffer.alloc(2);
  count.writeInt16BE(COPY_COLUMNS.length);
  parts.push(count);
  values.forEach((value, i) => {
    const kind = COPY_COLUMNS[i]![1];
    const bytes = kind === "int4" ? int32(Number(value)) : Buffer.from(String(value), "utf8");
    parts.push(int32(bytes.length), bytes);
  });
  parts.push(int32(upload.size)); // the bytea's length; its bytes follow
  return Buffer.concat(parts);
}

function int32(value: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(value);
  return b;
}

type PostgresJsCopy = { unsafe(query: string): { writable(): Promise<NodeJS.WritableStream> } };
type PgliteCopy = { query(query: string, params: unknown[], options: { blob: Blob }): Promise<unknown> };

/** The driver's own transaction handle behind Drizzle's (postgres-js's TransactionSql or PGlite's Transaction). */
function driverOf(tx: Tx): { postgres: PostgresJsCopy } | { pglite: PgliteCopy } | null {
  const client = (tx._.session as unknown as { client?: Record<string, unknown> }).client;
  if (client && typeof client.unsafe === "function") return { postgres: client as unknown as PostgresJsCopy };
  if (client && typeof client.query === "function") return { pglite: client as unknown as PgliteCopy };
  return null;
}

/**
 * Stores the accepted files, linked to their submission row (same
 * transaction): one row per file, one file at a time, each with a binary
 * COPY fed from its temporary file: of the ways measured, the one that costs
 * least memory on both drivers (docs/decisions/037-request-bodies-and-uploads.md).
 */
export async function storeUploads(
  tx: Tx,
  list: AcceptedUpload[],
  submission: { table: string; id: number },
): Promise<void> {
  const driver = driverOf(tx);
  for (const upload of list) {
    // The length in the COPY's header must be the file's: check it is still what was read.
    const { size } = await stat(upload.path);
    if (size !== upload.size) throw new Error(`upload file changed size (${size} ≠ ${upload.size})`);
    const head = copyHead(upload, submission);
    if (driver && "postgres" in driver) {
      const writable = await driver.postgres.unsafe(`copy ${COPY_TARGET} from stdin (format binary)`).writable();
      await pipeline(async function* () {
        yield head;
        yield* createReadStream(upload.path, { highWaterMark: 256 * 1024 });
        yield COPY_TRAILER;
      }, writable);
    } else if (driver && "pglite" in driver) {
      // Buffers from Buffer.alloc/concat are backed by plain ArrayBuffers.
      const blob = new Blob([
        head as Uint8Array<ArrayBuffer>,
        await openAsBlob(upload.path),
        COPY_TRAILER as Uint8Array<ArrayBuffer>,
      ]);
      await driver.pglite.query(`copy ${COPY_TARGET} from '/dev/blob' (format binary)`, [], { blob });
    } else {
      // Another driver: base64 text (4/3 of the size) rather than its bytea encoding.
      const { readFile } = await import("node:fs/promises");
      const base64 = (await readFile(upload.path)).toString("base64");
      await tx.insert(uploads).values({
        submissionTable: submission.table,
        submissionId: submission.id,
        field: upload.field,
        fileName: upload.fileName,
        mime: upload.mime,
        size: upload.size,
        data: sql`decode(${base64}, 'base64')`,
      });
    }
  }
}
