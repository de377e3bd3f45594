import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { sql } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { toCount } from "@db/client.server";
import { createAltchaChallenge } from "~/forms/captcha/altcha.server";
import { createSumChallenge } from "~/forms/captcha/sum.server";
import { honeypotInputProps } from "~/forms/honeypot.server";

/**
 * Helpers for the form integration tests. Captchas are solved for real: the
 * proof of work is computed with altcha-lib, the no-JS sum is read from its
 * question. Nothing is bypassed.
 */
export const SITE = "http://localhost:3000";

export async function altchaToken(): Promise<string> {
  const challenge = await createAltchaChallenge();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("could not solve the ALTCHA challenge");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

export function sumAnswer(): { captcha_answer: string; captcha_challenge: string; question: string } {
  const { question, token } = createSumChallenge();
  const [, a, b] = /What is (\d) \+ (\d)\?/.exec(question)!;
  return { captcha_answer: String(Number(a) + Number(b)), captcha_challenge: token, question };
}

/**
 * The hidden honeypot fields a real page renders (left empty), as if the page
 * was rendered 10 s ago: older than the minimum fill time (FORM_MIN_FILL_MS,
 * 2 s), as a person's post would be.
 */
export function honeypotFields(renderedMsAgo = 10_000): Record<string, string> {
  const props = honeypotInputProps(Date.now() - renderedMsAgo);
  return { [props.nameFieldName]: "", [props.validFromFieldName]: props.encryptedValidFrom };
}

type FieldValue = string | string[] | File | File[];

export function toFormData(fields: Record<string, FieldValue | undefined>): FormData {
  const fd = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) fd.append(key, item);
  }
  return fd;
}

let ipCounter = 0;
/** A distinct client IP per call, so rate limits of one test do not leak into another. */
export function nextIp(): string {
  ipCounter += 1;
  return `203.0.113.${(ipCounter % 250) + 1}`;
}

export function formPost(
  path: string,
  body: FormData | URLSearchParams | Record<string, unknown> | string,
  headers: Record<string, string> = {},
): Request {
  const init: RequestInit & { duplex?: string } = {
    method: "POST",
    headers: { Origin: SITE, "Sec-Fetch-Site": "same-origin", ...headers },
  };
  if (body instanceof FormData || body instanceof URLSearchParams || typeof body === "string") init.body = body;
  else {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  return new Request(`${SITE}${path}`, init);
}

/** Bytes file-type recognises as images (a header is all it reads). */
export function pngBytes(size = 256): Uint8Array<ArrayBuffer> {
  const header = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52];
  const bytes = new Uint8Array(Math.max(size, header.length + 16));
  bytes.set(header);
  bytes.set([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0], 16);
  return bytes;
}

export function jpegBytes(size = 256): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(Math.max(size, 16));
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  return bytes;
}

export function imageFile(name = "door.png", size = 256): File {
  return new File([pngBytes(size)], name, { type: "image/png" });
}

export async function count(db: Database, table: string): Promise<number> {
  const result = await db.execute(sql.raw(`select count(*)::int as n from "${table}"`));
  const rows = Array.isArray(result) ? result : (result as { rows: { n: unknown }[] }).rows;
  return toCount((rows[0] as { n: unknown }).n);
}

export async function rows<T = Record<string, unknown>>(db: Database, query: string): Promise<T[]> {
  const result = await db.execute(sql.raw(query));
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** A body that arrives as a stream in pieces of `piece` bytes (so delimiters fall across them), with no Content-Length, as when sent chunked. */
export function inPiecesBody(bytes: Uint8Array, piece = 16 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}
