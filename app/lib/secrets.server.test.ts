import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveSecret } from "./secrets.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function base(dataDir: string) {
  return { NODE_ENV: "development" as const, DATABASE_URL: undefined, DATA_DIR: dataDir, SESSION_SECRET: undefined, ALTCHA_HMAC_KEY: undefined, DATA_ENCRYPTION_KEY: undefined };
}

describe("resolveSecret", () => {
  it("prefers the environment", () => {
    expect(resolveSecret("ALTCHA_HMAC_KEY", { ...base("/nonexistent"), ALTCHA_HMAC_KEY: "k".repeat(40) })).toBe("k".repeat(40));
  });

  it("on the embedded database, generates once into DATA_DIR/secrets.json (mode 600) and keeps it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
    dirs.push(dir);
    const first = resolveSecret("DATA_ENCRYPTION_KEY", base(dir));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveSecret("DATA_ENCRYPTION_KEY", base(dir))).toBe(first);
    const file = path.join(dir, "secrets.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ DATA_ENCRYPTION_KEY: first });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveSecret("ALTCHA_HMAC_KEY", base(dir))).not.toBe(first);
  });

  it("in production with DATABASE_URL, refuses to run without the variable", () => {
    expect(() =>
      resolveSecret("DATA_ENCRYPTION_KEY", { ...base("/tmp"), NODE_ENV: "production", DATABASE_URL: "postgres://db/x" }),
    ).toThrow("DATA_ENCRYPTION_KEY is required in production with DATABASE_URL");
  });
});
