import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { env, parseEnv } from "~/lib/env.server";
import { createMailTransport } from "./transport.server";

/**
 * MAIL_TRANSPORT decides where mail goes (issue 15): smtp or files, by
 * default smtp exactly when SMTP_URL is set; production on a database server
 * has no silent fallback to the disk.
 */
const e = env();
const saved = { SMTP_URL: e.SMTP_URL, MAIL_TRANSPORT: e.MAIL_TRANSPORT, DATA_DIR: e.DATA_DIR };
afterEach(() => {
  Object.assign(e, saved);
});

describe("createMailTransport", () => {
  it("smtp when SMTP_URL is set and MAIL_TRANSPORT is not, pooled", () => {
    Object.assign(e, { SMTP_URL: "smtp://mail.example.com:2525", MAIL_TRANSPORT: undefined });
    const transport = createMailTransport();
    expect(transport.description).toBe("smtp mail.example.com:2525 (pool of 5)");
    transport.close();
  });

  it("files when MAIL_TRANSPORT=files, even with SMTP_URL set; a message lands as an .eml file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mail-files-"));
    try {
      Object.assign(e, { SMTP_URL: "smtp://mail.example.com:2525", MAIL_TRANSPORT: "files", DATA_DIR: dir });
      const transport = createMailTransport();
      expect(transport.description).toBe(`files in ${path.join(dir, "mail")}`);
      const message = { from: "no-reply@example.com", to: "ada@example.com", subject: "Hello", text: "Body" };
      await transport.send({ ...message, messageId: "<outbox-7-abc@example.com>" });
      const files = readdirSync(path.join(dir, "mail"));
      expect(files).toHaveLength(1);
      const eml = readFileSync(path.join(dir, "mail", files[0]!), "utf8");
      expect(eml).toMatch(/^To: ada@example\.com$/m);
      expect(eml).toMatch(/^Message-ID: <outbox-7-abc@example\.com>$/m);
      // The folder removed meanwhile: the next mail makes it again.
      rmSync(path.join(dir, "mail"), { recursive: true });
      await transport.send(message);
      transport.close();
      expect(readdirSync(path.join(dir, "mail"))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("files by default without SMTP_URL (development)", () => {
    Object.assign(e, { SMTP_URL: undefined, MAIL_TRANSPORT: undefined, DATA_DIR: "./.data" });
    expect(createMailTransport().description).toBe(`files in ${path.resolve(".data", "mail")}`);
  });
});

describe("production settings", () => {
  const production = {
    NODE_ENV: "production",
    DATABASE_URL: "postgres://db.internal/site",
    SESSION_SECRET: "x".repeat(32),
  } as const;

  it("refuse to start on a database server without SMTP_URL, unless MAIL_TRANSPORT=files says so", () => {
    expect(() => parseEnv({ ...production })).toThrow(/SMTP_URL: required in production with DATABASE_URL/);
    expect(parseEnv({ ...production, MAIL_TRANSPORT: "files" }).MAIL_TRANSPORT).toBe("files");
    expect(parseEnv({ ...production, SMTP_URL: "smtps://relay.example.com" }).SMTP_URL).toBe(
      "smtps://relay.example.com",
    );
    expect(() => parseEnv({ MAIL_TRANSPORT: "smtp" })).toThrow(/MAIL_TRANSPORT: smtp needs SMTP_URL/);
  });
});
