import { createReadStream, openAsBlob } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { getTableName, type Column, type Table } from "drizzle-orm";
import type postgres from "postgres";
import type { DbOrTx } from "./client.server";
import { driverClientOf } from "./driver-client.server";

/**
 * A row whose last value is a file, inserted with PostgreSQL's binary COPY fed
 * from the file on disk: no file is ever held whole in memory (postgres-js),
 * nor hex-encoded; of the ways measured, the one that costs least memory on
 * both drivers (docs/decisions/037-request-bodies-and-uploads.md). Each driver's
 * documented COPY, on the handle's own client (driver-client.server.ts), so in
 * its transaction:
 *  - postgres-js: `sql.unsafe("copy … from stdin (format binary)").writable()`,
 *    a stream the row is piped into;
 *  - PGlite: `query("copy … from '/dev/blob' (format binary)", [], { blob })`,
 *    the row as a Blob whose file part is read from disk (`openAsBlob`).
 */

/** A small value of the row and its binary encoding: UTF-8 text or a 32-bit integer. */
export type CopyValue = { column: Column; type: "text" | "int4"; value: string | number };
/** The row's last value, a bytea: the bytes of the file at `path`, exactly `size` of them. */
export type CopyFile = { column: Column; path: string; size: number };
/** Inserts one row into `table`: `values` in their order, then the file. */
export type RowCopy = (table: Table, values: CopyValue[], file: CopyFile) => Promise<void>;

/** PostgreSQL's binary COPY signature, flags and header extension length. */
const COPY_SIGNATURE = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]); // int16 -1

/** The binary COPY of `dbOrTx`'s driver (postgres-js or PGlite), or null for another driver. */
export function binaryCopyOf(dbOrTx: DbOrTx): RowCopy | null {
  const client = driverClientOf(dbOrTx);
  if (client && "postgres" in client) {
    return (table, values, file) => copyWithPostgresJs(client.postgres, table, values, file);
  }
  if (client && "pglite" in client) {
    return (table, values, file) => copyWithPglite(client.pglite, table, values, file);
  }
  return null;
}

/** postgres-js: the row streamed into COPY's writable, the file read from disk in 256 KB pieces. */
async function copyWithPostgresJs(sql: postgres.Sql, table: Table, values: CopyValue[], file: CopyFile) {
  const head = copyHead(values, file.size);
  const writable = await sql.unsafe(`copy ${copyTarget(table, values, file)} from stdin (format binary)`).writable();
  await pipeline(async function* () {
    yield head;
    yield* createReadStream(file.path, { highWaterMark: 256 * 1024 });
    yield COPY_TRAILER;
  }, writable);
}

/** PGlite: the row as a Blob (its file part backed by the file on disk) on /dev/blob. */
async function copyWithPglite(pglite: PGlite | Transaction, table: Table, values: CopyValue[], file: CopyFile) {
  // Buffers from Buffer.alloc/concat are backed by plain ArrayBuffers.
  const blob = new Blob([
    copyHead(values, file.size) as Uint8Array<ArrayBuffer>,
    await openAsBlob(file.path),
    COPY_TRAILER as Uint8Array<ArrayBuffer>,
  ]);
  await pglite.query(`copy ${copyTarget(table, values, file)} from '/dev/blob' (format binary)`, [], { blob });
}

/** `"table" ("column", …)`, the file's column last, each name quoted. */
function copyTarget(table: Table, values: CopyValue[], file: CopyFile): string {
  const columns = [...values.map((value) => value.column), file.column];
  return `${quoteIdent(getTableName(table))} (${columns.map((column) => quoteIdent(column.name)).join(", ")})`;
}

/** An identifier in double quotes, its own quotes doubled. */
function quoteIdent(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Everything of one row up to the file's bytes: signature, field count, the small values, the file's length. */
function copyHead(values: CopyValue[], fileSize: number): Buffer {
  const count = Buffer.alloc(2);
  count.writeInt16BE(values.length + 1);
  const parts: Buffer[] = [COPY_SIGNATURE, count];
  for (const { type, value } of values) {
    const bytes = type === "int4" ? int32(Number(value)) : Buffer.from(String(value), "utf8");
    parts.push(int32(bytes.length), bytes);
  }
  parts.push(int32(fileSize)); // the bytea's length; its bytes follow
  return Buffer.concat(parts);
}

/** A 32-bit big-endian integer, as COPY's binary format writes lengths and int4 values. */
function int32(value: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(value);
  return b;
}
