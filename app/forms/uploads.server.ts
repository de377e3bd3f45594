import {
  FormDataParseError,
  MaxFileSizeExceededError,
  MultipartParseError,
  parseFormData,
  type FileUpload,
} from "@mjackson/form-data-parser";
import { fileTypeFromBuffer } from "file-type";
import type { Tx } from "@db/client.server";
import { uploads } from "@db/schema";

/**
 * Reading a form body (urlencoded, multipart or JSON) and its files.
 * Multipart bodies are streamed with @mjackson/form-data-parser; each file is
 * judged as it arrives: how many, how large, and whether its bytes are an
 * image (file-type), never by its name or declared type (DECISIONS 11).
 */
export type UploadRule = {
  /** The form's file field (HTML name), e.g. "photos". */
  field: string;
  /** Other names accepted for the same files (the API's repeated 'photo'). */
  aliases?: string[];
  maxFiles: number;
  maxBytes: number;
  tooManyMessage: string;
};

export type AcceptedUpload = { field: string; fileName: string; mime: string; size: number; data: Uint8Array };

export type ParsedBody = {
  fields: FormData;
  uploads: AcceptedUpload[];
  /** Field name → messages (too many, too large, not an image). */
  uploadErrors: Record<string, string[]>;
};

/** A body we cannot read at all: answered with this status and message. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

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

const MAX_TEXT_BODY = 1024 * 1024;
const MB = 1024 * 1024;

function formatMb(bytes: number) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/** JSON → FormData (arrays become repeated fields), so every input goes through the same parse. */
function jsonToFormData(value: unknown, into = new FormData()): FormData {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new BodyError(400, "The request body must be a JSON object.");
  }
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const items = Array.isArray(raw) ? raw : [raw];
    for (const item of items) {
      if (item === null || item === undefined) continue;
      into.append(key, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
  }
  return into;
}

function declaredLength(request: Request): number | null {
  const value = request.headers.get("content-length");
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

export async function readBody(request: Request, rule?: UploadRule): Promise<ParsedBody> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const length = declaredLength(request);

  if (type.startsWith("application/json")) {
    if (length !== null && length > MAX_TEXT_BODY) throw new BodyError(413, "The request is too large.");
    const text = await request.text();
    if (text.length > MAX_TEXT_BODY) throw new BodyError(413, "The request is too large.");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BodyError(400, "The request body is not valid JSON.");
    }
    return { fields: jsonToFormData(json), uploads: [], uploadErrors: {} };
  }

  if (type.startsWith("application/x-www-form-urlencoded")) {
    if (length !== null && length > MAX_TEXT_BODY) throw new BodyError(413, "The request is too large.");
    return { fields: await request.formData(), uploads: [], uploadErrors: {} };
  }

  if (!type.startsWith("multipart/form-data")) {
    throw new BodyError(415, "Please send the form as multipart/form-data, URL-encoded fields or JSON.");
  }

  const maxFiles = rule?.maxFiles ?? 0;
  const maxBytes = rule?.maxBytes ?? 0;
  // A generous hard ceiling: beyond it the body is refused outright. Below it,
  // every problem becomes a field error and the other values are kept.
  const hardFileCap = Math.max(maxBytes * 2, MB);
  const hardBodyCap = (maxFiles + 2) * hardFileCap + 2 * MB;
  if (length !== null && length > hardBodyCap) throw new BodyError(413, "The request is too large.");

  const accepted: AcceptedUpload[] = [];
  const errors: string[] = [];
  let count = 0;
  const names = new Set(rule ? [rule.field, ...(rule.aliases ?? [])] : []);

  const handleFile = async (file: FileUpload) => {
    // An empty file input still sends a part with no name and no bytes.
    if (file.size === 0 && (!file.name || file.name === "file-upload")) return null;
    if (!rule || !names.has(file.fieldName)) return null;
    count += 1;
    if (count > maxFiles) return null;
    if (file.size > maxBytes) {
      errors.push(`Each photo must be ${formatMb(maxBytes).replace(".0", "")} or smaller; "${file.name}" is ${formatMb(file.size)}.`);
      return null;
    }
    const data = new Uint8Array(await file.arrayBuffer());
    const detected = await fileTypeFromBuffer(data);
    if (!detected || !IMAGE_TYPES.has(detected.mime)) {
      errors.push(`"${file.name}" is not an image. Please choose photos (JPEG, PNG, GIF, WebP or HEIC).`);
      return null;
    }
    accepted.push({ field: rule.field, fileName: file.name.slice(0, 200), mime: detected.mime, size: data.byteLength, data });
    return null;
  };

  let fields: FormData;
  try {
    fields = await parseFormData(
      request,
      { maxFiles: maxFiles + 25, maxFileSize: hardFileCap, maxHeaderSize: 8 * 1024 },
      handleFile,
    );
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) {
      throw new BodyError(413, `Each photo must be ${formatMb(maxBytes).replace(".0", "")} or smaller.`);
    }
    if (error instanceof FormDataParseError) throw new BodyError(413, rule?.tooManyMessage ?? "Too many files.");
    if (error instanceof MultipartParseError) throw new BodyError(400, "The form data could not be read.");
    throw error;
  }

  // The quote API sends its fields as JSON in a 'data' part (SPEC §7).
  const data = fields.get("data");
  if (typeof data === "string" && data.trim().startsWith("{")) {
    fields.delete("data");
    try {
      jsonToFormData(JSON.parse(data), fields);
    } catch {
      throw new BodyError(400, "The 'data' field is not valid JSON.");
    }
  }

  const uploadErrors: Record<string, string[]> = {};
  if (rule && count > maxFiles) errors.unshift(rule.tooManyMessage);
  if (rule && errors.length > 0) uploadErrors[rule.field] = errors;
  return { fields, uploads: errors.length > 0 ? [] : accepted, uploadErrors };
}

/** Stores the accepted files, linked to their submission row (same transaction). */
export async function storeUploads(
  tx: Tx,
  list: AcceptedUpload[],
  submission: { table: string; id: number },
): Promise<void> {
  if (list.length === 0) return;
  await tx.insert(uploads).values(
    list.map((u) => ({
      submissionTable: submission.table,
      submissionId: submission.id,
      field: u.field,
      fileName: u.fileName,
      mime: u.mime,
      size: u.size,
      data: u.data,
    })),
  );
}
