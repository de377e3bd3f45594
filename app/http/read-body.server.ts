import { BodyError, readJson, readUrlEncoded } from "./body.server";
import { readMultipart } from "./multipart.server";
import type { UploadRule } from "./upload-rule";

export { BodyError } from "./body.server";
export type { UploadRule } from "./upload-rule";

/**
 * Reading a form body (urlencoded, multipart or JSON) and its files, in
 * bounded memory (issue 15). Text bodies go through body.server.ts's limits.
 * Multipart bodies are parsed as a stream (multipart.server.ts): each file is
 * judged as it arrives and written straight to a temporary file
 * (temp-files.server.ts), within the process's disk budget, then judged by its
 * bytes, never by its name or declared type (DECISIONS 11). No file is ever
 * held whole in memory; `storeUploads` (app/forms/uploads.server.ts) copies
 * each one into its row from its temporary file.
 *
 * Disk is bounded too (issue 28 item 6). `beforeFiles` lets the caller run its
 * cheap checks (captcha, rate limit) before any file byte is written. A write
 * that would pass UPLOAD_TEMP_BUDGET_BYTES, or one the disk refuses (ENOSPC,
 * EIO, EDQUOT…), ends the body at once with a 503 (Retry-After) and removes
 * its files; what is left of the body is read and dropped in the background,
 * so the answer never waits for it.
 */

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

const noCleanup = async () => {};

/**
 * Reads a request's body by its content type: JSON, URL-encoded or multipart
 * (files only where `rule` sends them); anything else is a 415.
 */
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
