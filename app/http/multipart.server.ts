import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { log } from "~/lib/log.server";
import {
  BAD_MULTIPART_MESSAGE,
  BodyError,
  MAX_FIELDS,
  MAX_TEXT_BODY,
  MB,
  NOT_JSON_MESSAGE,
  TEXT_TOO_LARGE_MESSAGE,
  TOO_MANY_FIELDS_MESSAGE,
  jsonToFormData,
  readChunks,
} from "./body.server";
import type { AcceptedUpload, ParsedBody, ReadBodyOptions } from "./parsed-body";
import { TempFiles, uploadsUnavailable, type TempFile } from "./temp-files.server";
import { MAX_UPLOAD_TOTAL_BYTES, megabytes, photosTotalMessage, type UploadRule } from "./upload-rule";

/**
 * A multipart body, read as a stream (issue 15): busboy parses it, fed from
 * body.server.ts's counting reader (what is limited is the bytes read,
 * whatever the client declared). Each file is judged as it arrives (how many,
 * how large, how large all together) and written straight to a temporary file
 * (temp-files.server.ts), then judged by its bytes (file-type), never by its
 * name or declared type (DECISIONS 11).
 *
 * It reads top to bottom: the limits a rule sets, the parser, the body's
 * state, busboy's events (a text field, a limit, a file part), one file's way
 * (the caller's checks, its bytes written, closed, judged), then the body's
 * end: its outcome, or its failure and the removal of its files.
 */

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

/** What became of one file: stored later, refused with a message, or nothing to say (dropped, empty). */
type FileOutcome = { upload: AcceptedUpload } | { error: string } | undefined;

/** The limits a rule sets on one body, worked out once. */
type Limits = {
  rule: UploadRule | undefined;
  maxFiles: number;
  maxBytes: number;
  maxTotal: number;
  /** Up to twice the per-file limit is read and answered with a field error; beyond it, 413. */
  hardFileCap: number;
  tooLargeEach: string;
  /** The part names whose files are the rule's: its field and its aliases. */
  names: Set<string>;
  /** File parts busboy takes before it says "too many". */
  fileCap: number;
};

/** Reads a multipart body: its text fields, and its files where `rule` sends them. */
export async function readMultipart(
  request: Request,
  contentType: string,
  rule: UploadRule | undefined,
  options: ReadBodyOptions,
): Promise<ParsedBody> {
  const limits = limitsOf(rule);
  const body = new MultipartBody(createParser(contentType, limits), limits, options);
  listen(body);
  let outcomes: FileOutcome[];
  try {
    outcomes = await readToEnd(body, request);
  } catch (error) {
    throw await abandon(body, error);
  }
  return settle(body, outcomes);
}

/** The limits of `rule` (none: no file is kept), the total capped at MAX_UPLOAD_TOTAL_BYTES. */
function limitsOf(rule: UploadRule | undefined): Limits {
  const maxFiles = rule?.maxFiles ?? 0;
  const maxBytes = rule?.maxBytes ?? 0;
  return {
    rule,
    maxFiles,
    maxBytes,
    maxTotal: Math.min(rule?.maxTotalBytes ?? MAX_UPLOAD_TOTAL_BYTES, MAX_UPLOAD_TOTAL_BYTES),
    hardFileCap: Math.max(maxBytes * 2, MB),
    tooLargeEach: `Each photo must be ${megabytes(maxBytes)} or smaller.`,
    names: new Set(rule ? [rule.field, ...(rule.aliases ?? [])] : []),
    fileCap: maxFiles + EXTRA_FILE_PARTS,
  };
}

/** Busboy, bounded by the limits; a content type it cannot read (no boundary) is a 400. */
function createParser(contentType: string, { hardFileCap, fileCap }: Limits): busboy.Busboy {
  try {
    return busboy({
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
}

/** One body being read: what it holds so far, and why it stopped, if it did. */
class MultipartBody {
  readonly fields = new FormData();
  /** Fields counted against MAX_FIELDS (the 'data' part's too, once spread). */
  readonly counted = { fields: 0 };
  /** Bytes of the text fields' names and values, against MAX_TEXT_BODY. */
  textBytes = 0;
  readonly files = new TempFiles();
  /**
   * Each file's outcome, in the order the files came (their checks finish in any order).
   * Busboy's 'finish' waits for the file streams to be read, not for these.
   */
  readonly pending: Promise<FileOutcome>[] = [];
  /**
   * Our own reason to stop (a limit, the disk, the caller's beforeFiles): it wins over whatever busboy
   * says next, and the body is answered at once, whatever is left of it (read and dropped in the background).
   */
  failure: unknown = null;
  /** Rejects with `failure` as soon as it is set. */
  readonly failed: Promise<never>;
  private stopped!: (error: unknown) => void;
  /** A disk error is logged once per body. */
  private diskErrorLogged = false;
  /** Settled once `beforeFiles` has run (`check`). */
  checked: Promise<void> | null = null;
  /** Files of the rule's field so far (an empty file input is not one), their bytes, and whether those passed the total. */
  count = 0;
  total = 0;
  overTotal = false;

  constructor(
    readonly parser: busboy.Busboy,
    readonly limits: Limits,
    readonly options: ReadBodyOptions,
  ) {
    this.failed = new Promise<never>((_, reject) => (this.stopped = reject));
    this.failed.catch(() => {});
  }

  /** Stops the body for `error`; the first reason wins. */
  fail(error: unknown) {
    if (this.failure) return;
    this.failure = error;
    this.stopped(error);
    // Not from inside busboy's own event: it is in the middle of a chunk.
    process.nextTick(() => this.parser.destroy(error as Error));
  }

  /** A temporary file we could not create or write: logged once for the body, answered 503. */
  diskFailure(error: unknown) {
    if (error instanceof BodyError) return error; // the budget's own 503
    if (!this.diskErrorLogged) {
      this.diskErrorLogged = true;
      const { code, syscall, message } = error as NodeJS.ErrnoException;
      log.error({ code, syscall, message }, "could not write an upload's temporary file: answered 503, files removed");
    }
    return uploadsUnavailable();
  }

  /**
   * Runs `beforeFiles` once: when the first file part arrives (with the text fields read so far)
   * or, for a body without one, at its end. No file byte is read past busboy's buffer, let alone
   * written, before it resolves; when it throws, that error is the body's.
   */
  check(snapshot: () => FormData): Promise<void> {
    if (!this.checked) {
      const { beforeFiles } = this.options;
      this.checked = (async () => {
        if (beforeFiles) await beforeFiles(snapshot());
      })();
      this.checked.catch((error: unknown) => this.fail(error));
    }
    return this.checked;
  }

  /** A copy of the text fields read so far, the quote API's 'data' part spread into it. */
  fieldsSoFar(): FormData {
    const copy = new FormData();
    for (const [name, value] of this.fields) copy.append(name, value);
    spreadDataPart(copy, { ...this.counted });
    return copy;
  }
}

/** Wires busboy's events to the body. */
function listen(body: MultipartBody) {
  const { parser, limits } = body;
  parser.on("error", () => {}); // pipeline() reports it; one arriving after it has settled must not crash the process
  parser.on("field", (name, value, info) => onField(body, name, value, info));
  parser.on("fieldsLimit", () => body.fail(new BodyError(413, TOO_MANY_FIELDS_MESSAGE)));
  parser.on("partsLimit", () => body.fail(new BodyError(413, TOO_MANY_FIELDS_MESSAGE)));
  parser.on("filesLimit", () => body.fail(new BodyError(413, limits.rule?.tooManyMessage ?? "Too many files.")));
  parser.on("file", (name, stream, info) => onFile(body, name, stream, info));
}

/** A text field: counted against the text limit, then kept (a nameless one is dropped). */
function onField(body: MultipartBody, name: string, value: string, info: busboy.FieldInfo) {
  if (body.failure) return;
  // A part may declare its own charset; one TextDecoder does not know comes back as undefined.
  if (typeof value !== "string") return body.fail(new BodyError(400, BAD_MULTIPART_MESSAGE));
  body.textBytes += Buffer.byteLength(name ?? "") + Buffer.byteLength(value);
  if (info.valueTruncated || body.textBytes > MAX_TEXT_BODY)
    return body.fail(new BodyError(413, TEXT_TOO_LARGE_MESSAGE));
  if (!name) return;
  body.counted.fields++;
  body.fields.append(name, value);
}

/**
 * A file part: the first one runs the caller's checks; one of the rule's field is received,
 * any other read past.
 */
function onFile(body: MultipartBody, name: string, stream: Readable, info: busboy.FileInfo) {
  // When busboy is destroyed mid-file (a body cut short, too large), it destroys this stream with
  // the error: pipeline() reports it, and an 'error' nobody listens to would end the process.
  stream.on("error", () => {});
  const { rule, names } = body.limits;
  if (rule && name === rule.field && info.filename) body.options.onFileChosen?.();
  if (body.failure) return void stream.resume();
  // The first file part: the caller's checks run now, with the text fields so far (the forms put them first).
  const ready = body.check(() => body.fieldsSoFar());
  // Files go only where the rule sends them; the rest are read past (and count towards the limits).
  if (!rule || !names.has(name)) return void ready.finally(() => stream.resume()).catch(() => {});
  body.pending.push(
    receive(body, stream, info, rule.field, ready).catch((error: unknown) => {
      // A stream busboy broke (the parser is already failing) is pipeline()'s to report; anything
      // else must stop the body, or busboy would wait for this file's end forever.
      if (!body.parser.destroyed) body.fail(body.diskFailure(error));
      return undefined;
    }),
  );
}

/** One file of the rule's field as it arrives. */
type Incoming = {
  fileName: string;
  /** Within the rule's count: files past it are read and dropped; the "too many" message covers them. */
  kept: boolean;
  size: number;
  tooLarge: boolean;
  /** Its temporary file, once a byte of it was written; null again once removed. */
  file: TempFile | null;
};

/**
 * One file of the rule's field: once the caller's checks have passed, written to a temporary
 * file as it arrives, then judged.
 */
async function receive(
  body: MultipartBody,
  stream: Readable,
  info: busboy.FileInfo,
  field: string,
  ready: Promise<void>,
): Promise<FileOutcome> {
  const incoming: Incoming = {
    fileName: (info.filename || "file-upload").slice(0, 200),
    kept: ++body.count <= body.limits.maxFiles,
    size: 0,
    tooLarge: false,
    file: null,
  };
  stream.on("limit", () => body.fail(new BodyError(413, body.limits.tooLargeEach)));
  // Nothing is read (busboy waits) until the caller's checks have passed; if they threw, the body is over.
  const passed = await ready.then(
    () => true,
    () => false,
  );
  if (!passed) return undefined;
  await writeChunks(body, incoming, stream);
  await closeFile(body, incoming);
  return judge(body, incoming, info, field);
}

/** Reads the file's bytes, writing those that may be stored; past a limit, what was written is removed. */
async function writeChunks(body: MultipartBody, incoming: Incoming, stream: Readable) {
  const { maxBytes, maxTotal } = body.limits;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    incoming.size += chunk.byteLength;
    if (!incoming.kept || body.failure) continue;
    body.total += chunk.byteLength;
    if (incoming.size > maxBytes) incoming.tooLarge = true;
    if (body.total > maxTotal) body.overTotal = true;
    if (incoming.tooLarge || body.overTotal) {
      // Nothing of this file (or any later one) will be stored: stop writing it.
      if (incoming.file) await body.files.remove(incoming.file.path);
      incoming.file = null;
      continue;
    }
    await writeChunk(body, incoming, chunk);
  }
}

/**
 * Writes one chunk, the file made with the first. A disk error never leaves this by throwing:
 * busboy would wait for the stream's end forever.
 */
async function writeChunk(body: MultipartBody, incoming: Incoming, chunk: Buffer) {
  try {
    incoming.file ??= await body.files.create();
    await incoming.file.write(chunk);
  } catch (error) {
    body.fail(body.diskFailure(error)); // the chunks left are dropped; busboy is stopped on the next tick
  }
}

/** Closes the file: some file systems report a full disk or quota only now. */
async function closeFile(body: MultipartBody, incoming: Incoming) {
  try {
    await incoming.file?.close();
  } catch (error) {
    body.fail(body.diskFailure(error));
  }
}

/** What became of the file, by the rules in turn: the count, its size, the total, then its bytes. */
async function judge(
  body: MultipartBody,
  incoming: Incoming,
  info: busboy.FileInfo,
  field: string,
): Promise<FileOutcome> {
  if (body.failure) return undefined;
  if (incoming.size === 0 && !info.filename) {
    body.count--; // an empty file input ("no file chosen") sends a part with no file name and no bytes
    return undefined;
  }
  if (!incoming.kept || body.failure) return undefined; // one message for the count, below
  if (incoming.tooLarge) {
    const { maxBytes } = body.limits;
    return {
      error: `Each photo must be ${megabytes(maxBytes)} or smaller; "${incoming.fileName}" is ${formatMb(incoming.size)}.`,
    };
  }
  if (body.overTotal) return undefined; // one message for the total, below
  return judgeBytes(body, incoming, field);
}

/** An image by its bytes (file-type), never by its name or declared type: accepted, or removed with a message. */
async function judgeBytes(
  body: MultipartBody,
  { file, fileName, size }: Incoming,
  field: string,
): Promise<FileOutcome> {
  // file-type (with its tokenizers, ~110 KB) loads with the first upload, not with the server (issue 39).
  const { fileTypeFromFile } = await import("file-type");
  const detected = file ? await fileTypeFromFile(file.path).catch(() => undefined) : undefined;
  if (!file || !detected || !IMAGE_TYPES.has(detected.mime)) {
    if (file) await body.files.remove(file.path);
    return { error: `"${fileName}" is not an image. Please choose photos (JPEG, PNG, GIF, WebP or HEIC).` };
  }
  return { upload: { field, fileName, mime: detected.mime, size, path: file.path } };
}

/**
 * Reads the body to its end, or to our first reason to stop, and waits for its files' outcomes;
 * a body without a file part runs the caller's checks now, with every field.
 */
async function readToEnd(body: MultipartBody, request: Request): Promise<FileOutcome[]> {
  const parsing = pipeline(readChunks(request, MAX_MULTIPART_BODY), body.parser);
  parsing.catch(() => {}); // after a failure of ours it settles whenever the client sends again
  await Promise.race([parsing, body.failed]);
  const outcomes = await Promise.all(body.pending);
  if (body.failure) throw body.failure;
  spreadDataPart(body.fields, body.counted);
  await body.check(() => body.fields);
  if (body.failure) throw body.failure;
  return outcomes;
}

/** A body refused while it was read: its files are removed, and the error to answer with returned. */
async function abandon(body: MultipartBody, error: unknown): Promise<unknown> {
  await Promise.all(body.pending); // (they never reject) no file may be created after the removal
  await body.checked?.catch(() => {});
  await body.files.removeAll();
  // Ours (a limit, the disk, beforeFiles' own error), the reader's (too large, unreadable), or busboy's (malformed: 400).
  return body.failure ?? (error instanceof BodyError ? error : new BodyError(400, BAD_MULTIPART_MESSAGE));
}

/** The body read whole: its fields, and its files or the messages that refuse them all (their files removed). */
async function settle(body: MultipartBody, outcomes: FileOutcome[]): Promise<ParsedBody> {
  const { rule, maxFiles, maxTotal } = body.limits;
  const accepted = outcomes.flatMap((outcome) => (outcome && "upload" in outcome ? [outcome.upload] : []));
  const errors = outcomes.flatMap((outcome) => (outcome && "error" in outcome ? [outcome.error] : []));
  if (rule && body.count > maxFiles) errors.unshift(rule.tooManyMessage);
  if (rule && body.overTotal) errors.push(photosTotalMessage(body.total, maxTotal));
  const uploadErrors: Record<string, string[]> = {};
  if (rule && errors.length > 0) {
    uploadErrors[rule.field] = errors;
    await body.files.removeAll(); // nothing of a refused set is stored
  }
  return {
    fields: body.fields,
    uploads: errors.length > 0 ? [] : accepted,
    uploadErrors,
    cleanup: () => body.files.removeAll(),
  };
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

/** Bytes as "12.3 MB", for a file's size in a message. */
function formatMb(bytes: number) {
  return `${(bytes / MB).toFixed(1)} MB`;
}
