import { PGlite } from "@electric-sql/pglite";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "./client.server";
import { createPgliteFolder } from "./pglite-template.server";

const conf = "shared_buffers=16MB";
const work = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
const templateRoot = path.join(work, "templates");
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
const newDir = () => {
  const dir = path.join(work, `data-${n++}`);
  mkdirSync(dir);
  return dir;
};

async function tables(dir: string): Promise<string[]> {
  const db = new PGlite(dir);
  try {
    const { rows } = await db.query<{ t: string }>(
      "select tablename as t from pg_tables where schemaname = 'public' order by 1",
    );
    return rows.map((r) => r.t);
  } finally {
    await db.close();
  }
}

// Each test initialises PGlite clusters and runs every migration: tens of seconds on two busy cores.
describe("PGlite data folders from a template", { timeout: 120_000 }, () => {
  it("makes the template on the first new folder, copies it for the next, and keeps it pristine", async () => {
    const first = newDir();
    writeFileSync(path.join(first, "secrets.json"), "{}"); // app files beside the cluster stay out of the template
    expect(await createPgliteFolder(first, { migrationsFolder, conf, templateRoot })).toBe("initdb");
    const [key] = readdirSync(templateRoot).filter((e) => !e.startsWith("tmp-"));
    expect(key).toMatch(/^v\d+-[0-9a-f]{32}$/);
    expect(existsSync(path.join(templateRoot, key!, "secrets.json"))).toBe(false);

    const second = newDir();
    expect(await createPgliteFolder(second, { migrationsFolder, conf, templateRoot })).toBe("template");
    const migrated = await tables(second);
    expect(migrated).toContain("locations");
    expect(await tables(first)).toEqual(migrated);

    // The copies are independent, and the template stays a cleanly shut-down cluster.
    const db = new PGlite(second);
    await db.exec("create table only_in_second (x int)");
    await db.close();
    expect(await tables(first)).not.toContain("only_in_second");
    const control = readFileSync(path.join(templateRoot, key!, "global", "pg_control"));
    expect(control.readUInt32LE(16)).toBe(1);
  });

  it("replaces a template that is not a cleanly shut-down cluster", async () => {
    const keys = readdirSync(templateRoot).filter((e) => !e.startsWith("tmp-"));
    for (const key of keys) rmSync(path.join(templateRoot, key, "global", "pg_control"));
    const dir = newDir();
    expect(await createPgliteFolder(dir, { migrationsFolder, conf, templateRoot })).toBe("initdb");
    expect(await tables(dir)).toContain("locations");
    expect(await createPgliteFolder(newDir(), { migrationsFolder, conf, templateRoot })).toBe("template");
  });

  it("does not use a template made for other migrations", async () => {
    const changed = path.join(work, "migrations-changed");
    cpSync(migrationsFolder, changed, { recursive: true });
    const journalFile = path.join(changed, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8"));
    const last = journal.entries.at(-1);
    const tag = "9999_template_test";
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
    writeFileSync(journalFile, JSON.stringify(journal));
    writeFileSync(path.join(changed, `${tag}.sql`), "CREATE TABLE template_test (x int);");

    const dir = newDir();
    expect(await createPgliteFolder(dir, { migrationsFolder: changed, conf, templateRoot })).toBe("initdb");
    expect(await tables(dir)).toContain("template_test");
    // The old key's template is pruned in the background; the new one is used next.
    expect(await createPgliteFolder(newDir(), { migrationsFolder: changed, conf, templateRoot })).toBe("template");
  });

  it("without templates, initialises the folder itself", async () => {
    const dir = newDir();
    expect(await createPgliteFolder(dir, { migrationsFolder, conf, templateRoot: false })).toBe("initdb");
    expect(await tables(dir)).toContain("locations");
  });
});
