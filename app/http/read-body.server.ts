import { BodyError, readJson, readUrlEncoded } from "./body.server";
import { readMultipart } from "./multipart.server";
import type { UploadRule } from "./upload-rule";

export { BodyError } from "./body.server";
export type { UploadRule } from "./upload-rule";
export type { AcceptedUpload, ParsedBody, ReadBodyOptions } from "./parsed-body";
import type { ParsedBody, ReadBodyOptions } from "./parsed-body";

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
