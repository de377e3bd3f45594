import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("gives working development defaults with nothing set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./.data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SITE_URL).toBe("http://localhost:3000");
  });

  it("treats empty strings as unset and trims trailing slashes", () => {
    const env = parseEnv({ DATABASE_URL: "", SITE_URL: "https://www.example.com/" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SITE_URL).toBe("https://www.example.com");
  });

  it("names each invalid variable clearly", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });

  it("requires SESSION_SECRET in production on a real database", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" })).toThrow(/SESSION_SECRET/);
    expect(
      parseEnv({
        NODE_ENV: "production",
        DATABASE_URL: "postgres://u@h/db",
        SESSION_SECRET: "x".repeat(32),
        SMTP_URL: "smtp://mail.example.com",
      }).SESSION_SECRET,
    ).toHaveLength(32);
  });

  it("refuses to lose mail quietly: production on a real database needs SMTP_URL or an explicit MAIL_TRANSPORT=files", () => {
    const prod = { NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db", SESSION_SECRET: "x".repeat(32) };
    expect(() => parseEnv(prod)).toThrow(/SMTP_URL: required in production/);
    expect(parseEnv({ ...prod, MAIL_TRANSPORT: "files" }).MAIL_TRANSPORT).toBe("files");
    expect(() => parseEnv({ MAIL_TRANSPORT: "smtp" })).toThrow(/MAIL_TRANSPORT: smtp needs SMTP_URL/);
  });

  it("checks FORM_ALLOWED_ORIGINS and CLIENT_IP_HEADER at start", () => {
    expect(
      parseEnv({ FORM_ALLOWED_ORIGINS: " https://a.example.com/path , http://b.example.com:8080 " })
        .FORM_ALLOWED_ORIGINS,
    ).toEqual(["https://a.example.com", "http://b.example.com:8080"]);
    expect(() => parseEnv({ FORM_ALLOWED_ORIGINS: "https://ok.example.com,not a url" })).toThrow(
      /FORM_ALLOWED_ORIGINS[\s\S]*not a url/,
    );
    expect(() => parseEnv({ FORM_ALLOWED_ORIGINS: "ftp://files.example.com" })).toThrow(/FORM_ALLOWED_ORIGINS/);
    expect(parseEnv({ CLIENT_IP_HEADER: "Fly-Client-IP" }).CLIENT_IP_HEADER).toBe("fly-client-ip");
    expect(() => parseEnv({ CLIENT_IP_HEADER: "Fly Client IP" })).toThrow(/CLIENT_IP_HEADER/);
  });
});
