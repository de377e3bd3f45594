import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, type Env } from "./env.server";

/**
 * Server secrets (HMAC keys, the data-encryption key, the session secret).
 * Taken from the environment; when unset and the site runs on its embedded
 * database (no DATABASE_URL), generated once into a secrets file of their own
 * (SECRETS_FILE, default `.secrets.json` in the project folder: git-ignored,
 * mode 600) so a restart keeps them. The file never sits inside DATA_DIR, so a
 * copy of the database folder does not carry the key to its encrypted values.
 * In production with DATABASE_URL they are required in the environment.
 * With SECRETS_FILE=off (the unit tests, set in vitest.config.ts) or an
 * in-memory data folder they live in memory only.
 *
 * A secrets file that exists but cannot be read or parsed stops the server:
 * regenerating keys silently would make every stored SSN undecryptable.
 */
export type SecretName = "SESSION_SECRET" | "ALTCHA_HMAC_KEY" | "DATA_ENCRYPTION_KEY";

const SECRET_NAMES: SecretName[] = ["SESSION_SECRET", "ALTCHA_HMAC_KEY", "DATA_ENCRYPTION_KEY"];
const memory = new Map<SecretName, string>();

export class SecretsFileError extends Error {
  constructor(file: string, problem: string) {
    super(
      `The secrets file ${file} ${problem}. It holds the keys of data already stored (the encrypted SSNs): ` +
        "restore it from a backup, fix its permissions, or, if nothing encrypted is stored yet, delete it to start with new keys.",
    );
    this.name = "SecretsFileError";
  }
}

/**
 * Throws when production runs on DATABASE_URL without every secret set, or
 * when a secrets file cannot be used; otherwise loads every secret once, so a
 * problem stops the server at start and not at some visitor's request.
 */
export function assertSecretsConfigured(): void {
  const e = env();
  if (e.NODE_ENV === "production" && e.DATABASE_URL) {
    const missing = SECRET_NAMES.filter((name) => !e[name]);
    if (missing.length > 0) {
      throw new Error(`Missing secrets (required in production with DATABASE_URL): ${missing.join(", ")}`);
    }
  }
  for (const name of SECRET_NAMES) secret(name);
}

export function secret(name: SecretName): string {
  const cached = memory.get(name);
  if (cached) return cached;
  const value = resolveSecret(name, env());
  memory.set(name, value);
  return value;
}

type SecretsEnv = Pick<Env, SecretName | "NODE_ENV" | "DATABASE_URL" | "DATA_DIR" | "SECRETS_FILE">;

/** Where generated secrets are kept: SECRETS_FILE, or `.secrets.json` beside the data folder. */
export function secretsFilePath(e: Pick<Env, "DATA_DIR" | "SECRETS_FILE">): string {
  if (e.SECRETS_FILE) return path.resolve(e.SECRETS_FILE);
  return path.resolve(path.dirname(path.resolve(e.DATA_DIR)), ".secrets.json");
}

/**
 * The rule, without caching: the environment's value; in production with
 * DATABASE_URL nothing else; otherwise the value kept in the secrets file,
 * generated (32 random bytes, hex) on first use. `inMemory`, SECRETS_FILE=off
 * or a memory:// data folder skips the file.
 */
export function resolveSecret(name: SecretName, e: SecretsEnv, opts: { inMemory?: boolean } = {}): string {
  const fromEnv = e[name];
  if (fromEnv) return fromEnv;
  if (e.NODE_ENV === "production" && e.DATABASE_URL) {
    throw new Error(`${name} is required in production with DATABASE_URL`);
  }
  if (opts.inMemory || e.SECRETS_FILE === "off" || e.DATA_DIR.startsWith("memory://")) {
    return randomBytes(32).toString("hex");
  }

  const file = secretsFilePath(e);
  adoptLegacyFile(file, path.resolve(e.DATA_DIR, "secrets.json"));
  const stored = readSecretsFile(file);
  const existing = stored[name];
  if (existing) return existing;
  stored[name] = randomBytes(32).toString("hex");
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return stored[name];
}

/**
 * Earlier versions kept the file inside DATA_DIR. Move it out (once) so the
 * values it encrypted stay readable.
 */
function adoptLegacyFile(file: string, legacy: string): void {
  if (existsSync(file) || !existsSync(legacy)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  renameSync(legacy, file);
}

function readSecretsFile(file: string): Partial<Record<SecretName, string>> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new SecretsFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SecretsFileError(file, "is not valid JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new SecretsFileError(file, "is not a JSON object");
  const result: Partial<Record<SecretName, string>> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!SECRET_NAMES.includes(key as SecretName)) continue;
    if (typeof value !== "string" || !/^[0-9a-f]{64}$/i.test(value)) {
      throw new SecretsFileError(file, `has an invalid value for ${key}`);
    }
    result[key as SecretName] = value;
  }
  return result;
}
