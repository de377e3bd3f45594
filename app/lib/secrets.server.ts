import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, type Env } from "./env.server";

/**
 * Server secrets (HMAC keys, the data-encryption key, the session secret).
 * Taken from the environment; when unset and the site runs on its embedded
 * database (no DATABASE_URL), generated once into DATA_DIR/secrets.json so a
 * restart keeps them. In production with DATABASE_URL they are required.
 * Under vitest (or with an in-memory data folder) they live in memory only.
 */
export type SecretName = "SESSION_SECRET" | "ALTCHA_HMAC_KEY" | "DATA_ENCRYPTION_KEY";

const SECRET_NAMES: SecretName[] = ["SESSION_SECRET", "ALTCHA_HMAC_KEY", "DATA_ENCRYPTION_KEY"];
const memory = new Map<SecretName, string>();

/** Throws when production runs on DATABASE_URL without every secret set. */
export function assertSecretsConfigured(): void {
  const e = env();
  if (e.NODE_ENV !== "production" || !e.DATABASE_URL) return;
  const missing = SECRET_NAMES.filter((name) => !e[name]);
  if (missing.length > 0) {
    throw new Error(`Missing secrets (required in production with DATABASE_URL): ${missing.join(", ")}`);
  }
}

export function secret(name: SecretName): string {
  const cached = memory.get(name);
  if (cached) return cached;
  const value = resolveSecret(name, env(), { inMemory: Boolean(process.env.VITEST) });
  memory.set(name, value);
  return value;
}

/**
 * The rule, without caching: the environment's value; in production with
 * DATABASE_URL nothing else; otherwise the value kept in DATA_DIR/secrets.json,
 * generated (32 random bytes, hex) on first use. `inMemory` (tests, or a
 * memory:// data folder) skips the file.
 */
export function resolveSecret(
  name: SecretName,
  e: Pick<Env, SecretName | "NODE_ENV" | "DATABASE_URL" | "DATA_DIR">,
  opts: { inMemory?: boolean } = {},
): string {
  const fromEnv = e[name];
  if (fromEnv) return fromEnv;
  if (e.NODE_ENV === "production" && e.DATABASE_URL) {
    throw new Error(`${name} is required in production with DATABASE_URL`);
  }
  const generated = randomBytes(32).toString("hex");
  if (opts.inMemory || e.DATA_DIR.startsWith("memory://")) return generated;

  const file = path.resolve(e.DATA_DIR, "secrets.json");
  const stored = readSecretsFile(file);
  if (!stored[name]) {
    stored[name] = generated;
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  }
  return stored[name]!;
}

function readSecretsFile(file: string): Partial<Record<SecretName, string>> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Partial<Record<SecretName, string>>;
  } catch {
    return {};
  }
}
