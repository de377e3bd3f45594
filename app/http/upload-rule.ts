/**
 * What a body's files may be: the rule a form declares for its file field
 * (app/forms/identity.ts names it FormUploadRule), the cap on all of one
 * request's files together, and the words both sides use for sizes. Client-safe:
 * the browser checks the same limits before sending (app/forms/ui/fields.tsx),
 * the server enforces them (multipart.server.ts).
 */

/** One field's files: how many, how large each and all together, and where they may come from. */
export type UploadRule = {
  /** The form's file field (HTML name), e.g. "photos". */
  field: string;
  /** Other names accepted for the same files (the API's repeated 'photo'). */
  aliases?: string[];
  maxFiles: number;
  /** Per file. */
  maxBytes: number;
  /** All of one request's files together (the server caps it at MAX_UPLOAD_TOTAL_BYTES). */
  maxTotalBytes?: number;
  tooManyMessage: string;
};

/** All of one request's photos together (issue 15); the per-file and count rules stay as they are. */
export const MAX_UPLOAD_TOTAL_BYTES = 40 * 1024 * 1024;

/** "10 MB", "40 MB", "45.3 MB": whole numbers without ".0". */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`;
}

/** The message for photos over the total, in the browser and from the server alike. */
export function photosTotalMessage(totalBytes: number, maxTotalBytes = MAX_UPLOAD_TOTAL_BYTES): string {
  return `Your photos add up to ${(totalBytes / 1024 / 1024).toFixed(1)} MB; please send at most ${megabytes(maxTotalBytes)} in all (fewer or smaller photos).`;
}
