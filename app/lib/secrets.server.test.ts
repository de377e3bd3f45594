import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveSecret, SecretsFileError, secretsFilePath } from "./secrets.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch() {
  const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
  dirs.push(dir);
  return dir;
}

function base(dataDir: string) {
  return {
    NODE_ENV: "development" as const,
    DATABASE_URL: undefined,
    DATA_DIR: dataDir,
    SECRETS_FILE: undefined,
    SESSION_SECRET: undefined,
    ALTCHA_HMAC_KEY: undefined,
    DATA_ENCRYPTION_KEY: undefined,
  };
}

describe("resolveSecret", () => {
  it("prefers the environment", () => {
    expect(resolveSecret("ALTCHA_HMAC_KEY", { ...base("/nonexistent"), ALTCHA_HMAC_KEY: "k".repeat(40) })).toBe(
      "k".repeat(40),
    );
  });

  it("on the embedded database, generates once into .secrets.json beside (not inside) the data folder, mode 600", () => {
    const root = scratch();
    const dataDir = path.join(root, ".data");
    const first = resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir))).toBe(first);
    const file = path.join(root, ".secrets.json");
    expect(secretsFilePath(base(dataDir))).toBe(file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ DATA_ENCRYPTION_KEY: first });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);
    expect(resolveSecret("ALTCHA_HMAC_KEY", base(dataDir))).not.toBe(first);
  });

  it("SECRETS_FILE names another place", () => {
    const root = scratch();
    const file = path.join(root, "keys", "site.json");
    const value = resolveSecret("SESSION_SECRET", { ...base(path.join(root, ".data")), SECRETS_FILE: file });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ SESSION_SECRET: value });
  });

  it("moves a file left inside the data folder by an earlier version, keeping its keys", () => {
    const root = scratch();
    const dataDir = path.join(root, ".data");
    mkdirSync(dataDir);
    const key = "ab".repeat(32);
    writeFileSync(path.join(dataDir, "secrets.json"), JSON.stringify({ DATA_ENCRYPTION_KEY: key }));
    expect(resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir))).toBe(key);
    expect(existsSync(path.join(dataDir, "secrets.json"))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(root, ".secrets.json"), "utf8"))).toEqual({ DATA_ENCRYPTION_KEY: key });
  });

  it("stops, naming the file, when the file is corrupt or unreadable, instead of making new keys", () => {
    const root = scratch();
    const dataDir = path.join(root, ".data");
    const file = path.join(root, ".secrets.json");
    writeFileSync(file, '{"DATA_ENCRYPTION_KEY": "ab');
    expect(() => resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir))).toThrow(SecretsFileError);
    expect(() => resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir))).toThrow(file);
    expect(readFileSync(file, "utf8")).toBe('{"DATA_ENCRYPTION_KEY": "ab'); // untouched
    writeFileSync(file, JSON.stringify({ DATA_ENCRYPTION_KEY: "not-a-key" }));
    expect(() => resolveSecret("DATA_ENCRYPTION_KEY", base(dataDir))).toThrow(/invalid value for DATA_ENCRYPTION_KEY/);
    // A folder where the file should be cannot be read either (root ignores file modes, a folder it cannot read as a file).
    rmSync(file);
    mkdirSync(file);
    chmodSync(file, 0o700);
    expect(() => resolveSecret("SESSION_SECRET", base(dataDir))).toThrow(/cannot be read/);
  });

  it("in production with DATABASE_URL, refuses to run without the variable", () => {
    expect(() =>
      resolveSecret("DATA_ENCRYPTION_KEY", {
        ...base("/tmp"),
        NODE_ENV: "production",
        DATABASE_URL: "postgres://db/x",
      }),
    ).toThrow("DATA_ENCRYPTION_KEY is required in production with DATABASE_URL");
  });
});
