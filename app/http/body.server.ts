/**
 * Reading a request body within bounds (issue 15). Every limit counts bytes
 * actually read from `request.body`, never the `Content-Length` a client
 * declares (a chunked body has none, and a declared one can lie).
 *
 *   - text forms (URL-encoded, JSON): at most 1 MB and 500 fields (413);
 *   - JSON: an object of text, numbers, true/false or lists of those, nested
 *     no deeper than 4 (400 otherwise, checked before it is parsed);
 *   - multipart: parsed as a stream by busboy (multipart.server.ts), fed from
 *     the same counting reader, so a file's bytes go to disk as they arrive;
 *     no room on disk (the temp-file budget, a full or failing disk) is a 503
 *     with a Retry-After (`retryAfterSeconds`).
 *
 * Invalid UTF-8 or percent-encoding never throws: it becomes U+FFFD, as a
 * browser would show it, and the schema judges the value.
 */

/**
 * A body we cannot read at all: answered with this status and message. A 503
 * (no room for uploads just now) also says when to try again: the answer's
 * `Retry-After`, in seconds.
 */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 503,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

export const MB = 1024 * 1024;
/** URL-encoded and JSON bodies; also the sum of a multipart body's text fields. */
export const MAX_TEXT_BODY = MB;
/** Fields in one body (URL-encoded pairs, JSON values, multipart text parts); our largest form has ~40. */
export const MAX_FIELDS = 500;
/** `{"a":[…]}` is depth 2; 4 leaves room and refuses anything built to exhaust a parser. */
export const MAX_JSON_DEPTH = 4;

export const TOO_LARGE_MESSAGE = "The request is too large.";
export const TOO_MANY_FIELDS_MESSAGE = `The form has too many fields (at most ${MAX_FIELDS}).`;
export const TEXT_TOO_LARGE_MESSAGE = "The form's text is too long (at most 1 MB in all).";
export const UNREADABLE_MESSAGE = "The request body could not be read.";
export const BAD_MULTIPART_MESSAGE = "The form data could not be read.";
export const NOT_JSON_MESSAGE = "The request body is not valid JSON.";
export const JSON_OBJECT_MESSAGE = "The request body must be a JSON object.";
/** Uploads refused for want of room (the temp-file budget, a full or failing disk): BodyError 503. */
export const UPLOADS_UNAVAILABLE_MESSAGE =
  "We cannot take photos just now. Please try again in a minute, or send the form without photos.";
/** The `Retry-After` of that 503. */
export const UPLOADS_RETRY_AFTER_SECONDS = 30;
export const JSON_TOO_DEEP_MESSAGE = `The JSON is nested too deeply: send an object whose values are text, numbers, true/false or lists of those.`;

const decoder = new TextDecoder("utf-8"); // not fatal: invalid bytes become U+FFFD
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

// ── Counting reader ─────────────────────────────────────────────────

/**
 * Bytes a reader that stopped early reads and throws away in the background,
 * and for how long. Cancelling at once would destroy the socket (the Node
 * adapter's stream destroys the request), and a client still sending then
 * gets a reset instead of our 413; reading on lets the answer arrive and the
 * connection stay usable. Beyond these bounds the stream is cancelled.
 */
const DRAIN_BYTES = 128 * MB;
const DRAIN_MS = 30_000;

/**
 * The body's chunks, counting every byte read; past `limit` it throws
 * BodyError(413, message). A stream that fails (the client went away) is a
 * BodyError(400). However the caller stops (done, thrown, returned early),
 * an unfinished body is drained in the background, never left hanging.
 */
export async function* readChunks(
  request: Request,
  limit: number,
  message = TOO_LARGE_MESSAGE,
): AsyncGenerator<Uint8Array> {
  const body = request.body;
  if (!body) return;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch {
    throw new BodyError(400, UNREADABLE_MESSAGE); // already read or locked
  }
  let total = 0;
  let finished = false;
  try {
    // A declared length over the limit is refused before reading; a smaller one is not trusted.
    const declared = request.headers.get("content-length");
    if (declared && /^\d+$/.test(declared) && Number(declared) > limit) throw new BodyError(413, message);
    while (true) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        finished = true; // an errored stream has nothing left to drain
        throw new BodyError(400, UNREADABLE_MESSAGE);
      }
      if (result.done) {
        finished = true;
        return;
      }
      total += result.value.byteLength;
      if (total > limit) throw new BodyError(413, message);
      yield result.value;
    }
  } finally {
    if (finished) reader.releaseLock();
    else void drain(reader);
  }
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), DRAIN_MS);
  timer.unref?.();
  let read = 0;
  try {
    while (read <= DRAIN_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away or the stream was cancelled: nothing left to do.
  } finally {
    clearTimeout(timer);
  }
}

/** The whole body as bytes, at most `limit` of them. */
export async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of readChunks(request, limit)) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

// ── URL-encoded ─────────────────────────────────────────────────────

/** Fields of an `application/x-www-form-urlencoded` body: 1 MB, 500 fields. */
export async function readUrlEncoded(request: Request): Promise<FormData> {
  const text = decoder.decode(await readBytes(request, MAX_TEXT_BODY));
  let pairs = 0;
  for (let at = 0; at <= text.length;) {
    const next = text.indexOf("&", at);
    const end = next === -1 ? text.length : next;
    if (end > at && ++pairs > MAX_FIELDS) throw new BodyError(413, TOO_MANY_FIELDS_MESSAGE);
    at = end + 1;
  }
  // URLSearchParams never throws: a bad %-escape stays as typed, bad UTF-8 becomes U+FFFD.
  const fields = new FormData();
  for (const [key, value] of new URLSearchParams(text)) fields.append(key, value);
  return fields;
}

// ── JSON ────────────────────────────────────────────────────────────

/** Fields of an `application/json` body (SPEC §7's API): 1 MB, 500 fields, shallow. */
export async function readJson(request: Request): Promise<FormData> {
  const bytes = await readBytes(request, MAX_TEXT_BODY);
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    throw new BodyError(400, NOT_JSON_MESSAGE); // JSON is UTF-8 (RFC 8259)
  }
  return jsonToFormData(text);
}

/**
 * The deepest nesting of `[` and `{` outside strings, stopping as soon as it
 * passes `max`: a linear scan, so a hostile `[[[[…` is refused before
 * JSON.parse builds it (or JSON.stringify later overflows the stack on it).
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Shortened for a message: a field name is the client's text, never echoed at length. */
function fieldLabel(key: string) {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** A JSON body that must be one object, nested at most MAX_JSON_DEPTH deep; anything else is a BodyError (400). */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw new BodyError(400, JSON_TOO_DEEP_MESSAGE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, NOT_JSON_MESSAGE);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new BodyError(400, JSON_OBJECT_MESSAGE);
  return value as Record<string, unknown>;
}

/**
 * JSON text → FormData (a list becomes a repeated field), so every input goes
 * through the same schema. Only what a form can hold is accepted: text,
 * numbers, true/false, null (left out) and lists of those.
 */
export function jsonToFormData(text: string, into = new FormData(), counted = { fields: 0 }): FormData {
  for (const [key, raw] of Object.entries(parseJsonObject(text))) {
    const items = Array.isArray(raw) ? raw : [raw];
    for (const item of items) {
      if (item === null || item === undefined) continue;
      if (!isPrimitive(item)) {
        throw new BodyError(400, `The field ${fieldLabel(key)} must be text, a number, true/false or a list of those.`);
      }
      if (++counted.fields > MAX_FIELDS) throw new BodyError(413, TOO_MANY_FIELDS_MESSAGE);
      into.append(key, String(item));
    }
  }
  return into;
}
