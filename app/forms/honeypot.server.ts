import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { secret } from "~/lib/secrets.server";

/**
 * The honeypot of every form (app/forms/ui/HoneypotFields.tsx renders the
 * fields), on remix-utils' contract. remix-utils itself is not used: its
 * server half imports the optional peer `@oslojs/crypto`, and its inputs carry
 * autocomplete="nope", which is not valid HTML (docs/decisions/032-spam-budget.md). The contract —
 * `name__confirm` must arrive empty, `from__confirm` is an encrypted
 * timestamp that must decrypt and not lie in the future — with node:crypto
 * and a key derived from the form secret, so every instance agrees.
 *
 * Stricter than remix-utils (issue 15, DECISIONS 27): on HTML posts the
 * fields are required (a bot that leaves them out is not waved through), and
 * a form posted sooner than `minFillMs` after it was rendered counts as a
 * trip too (no person reads and fills a form in under two seconds). Only the
 * JSON API of SPEC §7, whose clients never saw a page, is posted without them.
 */
export const HONEYPOT_NAME_FIELD = "name__confirm";
export const HONEYPOT_VALID_FROM_FIELD = "from__confirm";

export type HoneypotInputProps = {
  nameFieldName: string;
  validFromFieldName: string;
  encryptedValidFrom: string;
};

function key(): Buffer {
  return createHash("sha256")
    .update(`honeypot:${secret("ALTCHA_HMAC_KEY")}`)
    .digest();
}

/**
 * The fields of a render. `answering`: the render answers a refused or failed post of the
 * submission key it names (issue 28): its re-send is a person's, so the minimum fill time does
 * not apply to it (a visitor who corrects the sum, or sends again after a 503, within 2 s).
 */
export function honeypotInputProps(now = Date.now(), answering?: { submissionKey: string }): HoneypotInputProps {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const stamp = answering ? `${now}:${answering.submissionKey}` : String(now);
  const body = Buffer.concat([cipher.update(stamp, "utf8"), cipher.final()]);
  return {
    nameFieldName: HONEYPOT_NAME_FIELD,
    validFromFieldName: HONEYPOT_VALID_FROM_FIELD,
    encryptedValidFrom: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url"),
  };
}

function decryptValidFrom(value: string): { time: number; answering: string | null } | null {
  try {
    const raw = Buffer.from(value, "base64url");
    if (raw.length < 29) return null;
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    const [timeText = "", answering = null] = text.split(":");
    const time = Number(timeText);
    return Number.isSafeInteger(time) && time > 0 ? { time, answering } : null;
  } catch {
    return null;
  }
}

export type HoneypotCheck = {
  /** True for HTML posts (a rendered form always carries both fields); false for the JSON API. */
  required: boolean;
  /** A form posted sooner than this after it was rendered is treated as automated (0: no minimum). */
  minFillMs?: number;
  /** The submission key posted: a render answering a refused post of this key has no minimum fill time. */
  submissionKey?: string | null;
  now?: number;
};

/** True when the submission looks automated: the trap was filled, forged, left out (when required) or posted too fast. */
export function isHoneypotTripped(
  fields: FormData,
  { required, minFillMs = 0, now = Date.now(), submissionKey = null }: HoneypotCheck,
): boolean {
  const hasName = fields.has(HONEYPOT_NAME_FIELD);
  const hasValidFrom = fields.has(HONEYPOT_VALID_FROM_FIELD);
  if (!hasName && !hasValidFrom) return required;
  if (!hasName || fields.get(HONEYPOT_NAME_FIELD) !== "") return true;
  const validFrom = fields.get(HONEYPOT_VALID_FROM_FIELD);
  if (typeof validFrom !== "string" || !validFrom) return true;
  const rendered = decryptValidFrom(validFrom);
  // A timestamp from the future is forged (or from a clock we do not trust); a recent one is a bot's speed.
  if (rendered === null || rendered.time > now) return true;
  const resend = rendered.answering !== null && rendered.answering === submissionKey;
  return !resend && now - rendered.time < minFillMs;
}
