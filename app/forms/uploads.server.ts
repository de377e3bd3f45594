import { readFile, stat } from "node:fs/promises";
import { sql } from "drizzle-orm";
import type { Tx } from "@db/client.server";
import { binaryCopyOf, type CopyValue } from "@db/copy.server";
import { uploads } from "@db/schema";
import type { AcceptedUpload } from "~/http/read-body.server";

/**
 * A form's accepted files, stored with its submission. The body reader
 * (app/http/read-body.server.ts) left each one in a temporary file; here each
 * becomes a row of `uploads`, copied from that file by db/copy.server.ts.
 */

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
  const copy = binaryCopyOf(tx);
  for (const upload of list) {
    // The length in the COPY's header must be the file's: check it is still what was read.
    const { size } = await stat(upload.path);
    if (size !== upload.size) throw new Error(`upload file changed size (${size} ≠ ${upload.size})`);
    if (copy) {
      await copy(uploads, rowValues(upload, submission), {
        column: uploads.data,
        path: upload.path,
        size: upload.size,
      });
    } else {
      await insertAsBase64(tx, upload, submission);
    }
  }
}

/** The row's small values, in COPY's order; `data`, the file's bytes, follows them. */
function rowValues(upload: AcceptedUpload, submission: { table: string; id: number }): CopyValue[] {
  return [
    { column: uploads.submissionTable, type: "text", value: submission.table },
    { column: uploads.submissionId, type: "int4", value: submission.id },
    { column: uploads.field, type: "text", value: upload.field },
    { column: uploads.fileName, type: "text", value: upload.fileName },
    { column: uploads.mime, type: "text", value: upload.mime },
    { column: uploads.size, type: "int4", value: upload.size },
  ];
}

/** Another driver, without a COPY we know: base64 text (4/3 of the size) rather than its bytea encoding. */
async function insertAsBase64(tx: Tx, upload: AcceptedUpload, submission: { table: string; id: number }) {
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
