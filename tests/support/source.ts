import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Reading the code itself, for the tests that hold its floor plan (app/folders.test.ts,
 * app/payments/ledger-owner.test.ts): the source files of a folder and what each one imports.
 */
export const root = path.resolve(import.meta.dirname, "../..");

/** The source files (not tests) under `folder`, relative to the project's root. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((file) => !file.includes(`node_modules${path.sep}`));
}

export const readSource = (file: string) => readFileSync(path.join(root, file), "utf8");

/**
 * Every module a text names: `import … from`, a bare `import "…"`, `export … from` and a dynamic
 * `import("…")`, type-only imports included (they are a dependency of the code's shape too).
 */
export function importedSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) found.push(m[1]!);
  return found;
}

/**
 * The project path (relative to the root) a specifier points into, before any extension is
 * added: `~/x` is app/x, `@db/x` is db/x, a relative one is read from `fromFile`'s folder;
 * undefined for a package.
 */
export function projectPathOf(specifier: string, fromFile: string): string | undefined {
  const bare = specifier.split("?")[0]!;
  if (bare.startsWith("~/")) return path.join("app", bare.slice(2));
  if (bare.startsWith("@db/")) return path.join("db", bare.slice(4));
  if (bare.startsWith(".")) return path.relative(root, path.resolve(root, path.dirname(fromFile), bare));
  return undefined;
}
