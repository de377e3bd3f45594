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
    expect(() =>
      parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" }),
    ).toThrow(/SESSION_SECRET/);
    expect(
      parseEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db", SESSION_SECRET: "x".repeat(32) })
        .SESSION_SECRET,
    ).toHaveLength(32);
  });
});
