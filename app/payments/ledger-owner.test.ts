import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSource, root, sourceFiles } from "../../tests/support/source";

/**
 * `app/payments/` is the only reader and writer of the payment tables (issue 36, issue 37 item 8):
 * what a visitor or the company reads about money comes from the ledger through its modules
 * (moneyOf, findPayment, …), never from a query of its own. This reads the code: the tables are the
 * `pgTable`s the payment schema files export, and every import of `@db/schema` (or of a file in it)
 * outside `app/payments/` is checked against them.
 */
const PAYMENT_SCHEMA_FILES = ["db/schema/payments.ts", "db/schema/sandbox.ts"];
const SOURCE_FOLDERS = ["app", "server", "scripts", "db"];
const OWNER = `app${path.sep}payments${path.sep}`;

function tablesOf(file: string): string[] {
  const text = readSource(file);
  return [...text.matchAll(/export const (\w+) = pgTable\(/g)].map((m) => m[1]!);
}

/**
 * The names a module's text imports from the schema (`@db/schema`, `@db/schema/…`, or a relative
 * path into db/schema, resolved from `dir`), type-only imports left out (they read no row); a
 * namespace import of the schema counts as importing everything ("*").
 */
function schemaImportsIn(text: string, dir: string): string[] {
  const intoSchema = (from: string) =>
    /^@db\/schema(\/|$)/.test(from) ||
    (from.startsWith(".") && path.resolve(dir, from).startsWith(path.join(root, "db", "schema")));
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+["']([^"']+)["']/g)) {
    if (m[1] || !intoSchema(m[3]!)) continue;
    for (const piece of m[2]!.split(",").map((p) => p.trim())) {
      if (!piece || piece.startsWith("type ")) continue;
      names.push(piece.split(/\s+as\s+/)[0]!);
    }
  }
  for (const m of text.matchAll(/import\s+\*\s+as\s+\w+\s+from\s+["']([^"']+)["']/g))
    if (intoSchema(m[1]!)) names.push("*");
  return names;
}

describe("the payment tables have one owner, app/payments/", () => {
  const tables = new Set(PAYMENT_SCHEMA_FILES.flatMap(tablesOf));

  it("reads the tables from the schema files", () => {
    expect([...tables]).toEqual(expect.arrayContaining(["payments", "sandboxTransactions"]));
  });

  it("no module outside app/payments/ imports a payment table (or the whole schema)", () => {
    const offenders: string[] = [];
    for (const file of SOURCE_FOLDERS.flatMap(sourceFiles)) {
      // The owner; the schema itself; the database module, which hands the whole schema to Drizzle.
      if (
        file.startsWith(OWNER) ||
        file.startsWith(path.join("db", "schema")) ||
        file === path.join("db", "client.server.ts")
      )
        continue;
      const text = readSource(file);
      for (const name of schemaImportsIn(text, path.dirname(path.join(root, file))))
        if (tables.has(name) || name === "*") offenders.push(`${file}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });

  it("would see one: each way of importing a payment table is found, a type-only import is not", () => {
    const shop = path.join(root, "app", "shop");
    expect(schemaImportsIn('import { carts, payments as ledger } from "@db/schema";', shop)).toEqual([
      "carts",
      "payments",
    ]);
    expect(schemaImportsIn('import { sandboxTransactions } from "../../db/schema/sandbox";', shop)).toEqual([
      "sandboxTransactions",
    ]);
    expect(schemaImportsIn('import * as schema from "@db/schema";', shop)).toEqual(["*"]);
    expect(schemaImportsIn('import type { payments } from "@db/schema";', shop)).toEqual([]);
    expect(schemaImportsIn('import { type Payment, carts } from "@db/schema/payments";', shop)).toEqual(["carts"]);
  });
});
