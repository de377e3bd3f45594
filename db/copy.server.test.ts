import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../tests/support/db";
import type { Connection, DbOrTx } from "./client.server";
import { binaryCopyOf, type CopyValue } from "./copy.server";
import { driverClientOf } from "./driver-client.server";
import { uploads } from "./schema";

/**
 * The binary COPY reaches the driver through the app's own clients (documented APIs only): a
 * database's `$client`, a transaction's client while its callback runs. It writes in that
 * transaction: a rollback takes the row with it.
 */
describe(`binary COPY of a row with a file (${process.env.DATABASE_URL ? "PostgreSQL server" : "PGlite"})`, () => {
  let conn: Connection;
  let dir: string;
  let file: { column: typeof uploads.data; path: string; size: number };
  const bytes = randomBytes(300_000);

  beforeAll(async () => {
    conn = await createTestDatabase({ seed: false });
    dir = mkdtempSync(path.join(os.tmpdir(), "copy-test-"));
    writeFileSync(path.join(dir, "file"), bytes);
    file = { column: uploads.data, path: path.join(dir, "file"), size: bytes.length };
  });
  afterAll(async () => {
    await conn?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The row's small values for submission `id`. */
  const values = (id: number): CopyValue[] => [
    { column: uploads.submissionTable, type: "text", value: "copy_test" },
    { column: uploads.submissionId, type: "int4", value: id },
    { column: uploads.field, type: "text", value: "photos" },
    { column: uploads.fileName, type: "text", value: "é.png" },
    { column: uploads.mime, type: "text", value: "image/png" },
    { column: uploads.size, type: "int4", value: bytes.length },
  ];
  const copyInto = async (dbOrTx: DbOrTx, id: number) => {
    const copy = binaryCopyOf(dbOrTx);
    expect(copy).not.toBeNull();
    await copy!(uploads, values(id), file);
  };
  const rowsOf = (dbOrTx: DbOrTx, id: number) => dbOrTx.select().from(uploads).where(eq(uploads.submissionId, id));

  it("knows the driver of the database and of a transaction, nested ones too, and nothing outside", async () => {
    const kind = conn.kind === "postgres" ? "postgres" : "pglite";
    expect(Object.keys(driverClientOf(conn.db)!)).toEqual([kind]);
    let leaked: DbOrTx | undefined;
    await conn.db.transaction(async (tx) => {
      leaked = tx;
      expect(Object.keys(driverClientOf(tx)!)).toEqual([kind]);
      await tx.transaction(async (inner) => expect(Object.keys(driverClientOf(inner)!)).toEqual([kind]));
    });
    expect(driverClientOf(leaked!)).toBeNull();
  });

  it("copies a row, the file's bytes whole, on the database and in a transaction", async () => {
    await copyInto(conn.db, 1);
    await conn.db.transaction((tx) => copyInto(tx, 2));
    for (const id of [1, 2]) {
      const [row] = await rowsOf(conn.db, id);
      expect(row).toMatchObject({ submissionTable: "copy_test", fileName: "é.png", size: bytes.length });
      expect(Buffer.from(row!.data).equals(bytes)).toBe(true);
    }
  });

  it("writes in the transaction: seen inside it, gone with its rollback", async () => {
    const rollback = new Error("rollback");
    const outcome = conn.db.transaction(async (tx) => {
      await copyInto(tx, 3);
      expect(await rowsOf(tx, 3)).toHaveLength(1);
      throw rollback;
    });
    await expect(outcome).rejects.toBe(rollback);
    expect(await rowsOf(conn.db, 3)).toHaveLength(0);
  });
});
