import { describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { createGateway, paymentConfigProblems } from "./gateway.server";

/** Which gateway the configuration gives, and what it refuses. */
const production = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://db.example.com/site",
  SESSION_SECRET: "s".repeat(32),
  MAIL_TRANSPORT: "files",
};

describe("payment settings", () => {
  it("defaults: the sandbox, a 20 s processor timeout, 3 bookings per slot", () => {
    const e = parseEnv({});
    expect(e.PAYMENT_GATEWAY).toBeUndefined();
    expect(e.AUTHORIZENET_ENV).toBe("sandbox");
    expect(e.PAYMENT_TIMEOUT_MS).toBe(20_000);
    expect(e.SERVICE_SLOT_CAPACITY).toBe(3);
    expect(paymentConfigProblems(e)).toEqual([]);
    expect(createGateway(e).name).toBe("sandbox");
  });

  it("bad values stop the server at start", () => {
    expect(() => parseEnv({ PAYMENT_GATEWAY: "stripe" })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => parseEnv({ AUTHORIZENET_ENV: "live" })).toThrow(/AUTHORIZENET_ENV/);
    expect(() => parseEnv({ SERVICE_SLOT_CAPACITY: "0" })).toThrow(/SERVICE_SLOT_CAPACITY/);
    expect(() => parseEnv({ PAYMENT_TIMEOUT_MS: "soon" })).toThrow(/PAYMENT_TIMEOUT_MS/);
  });

  it("production on a database server: the sandbox only when said explicitly", () => {
    const implicit = parseEnv(production);
    expect(paymentConfigProblems(implicit)).toEqual([
      expect.stringMatching(/^PAYMENT_GATEWAY: required in production with DATABASE_URL/),
    ]);
    expect(() => createGateway(implicit)).toThrow(/PAYMENT_GATEWAY/);
    const explicit = parseEnv({ ...production, PAYMENT_GATEWAY: "sandbox" });
    expect(createGateway(explicit).name).toBe("sandbox");
    // The embedded database (a trial or development setup) keeps the default.
    expect(paymentConfigProblems(parseEnv({ ...production, DATABASE_URL: "" }))).toEqual([]);
  });

  it("authorizenet needs its login id and transaction key", () => {
    const missing = parseEnv({ PAYMENT_GATEWAY: "authorizenet", AUTHORIZENET_LOGIN_ID: "abc" });
    expect(paymentConfigProblems(missing)).toEqual([
      "AUTHORIZENET_TRANSACTION_KEY: required with PAYMENT_GATEWAY=authorizenet",
    ]);
    expect(() => createGateway(missing)).toThrow(/AUTHORIZENET_TRANSACTION_KEY/);
    const complete = parseEnv({
      PAYMENT_GATEWAY: "authorizenet",
      AUTHORIZENET_LOGIN_ID: "abc",
      AUTHORIZENET_TRANSACTION_KEY: "def",
    });
    expect(createGateway(complete).name).toBe("authorizenet");
  });

  it("the configuration's error names no secret", () => {
    const e = parseEnv({
      ...production,
      PAYMENT_GATEWAY: "authorizenet",
      AUTHORIZENET_LOGIN_ID: "login-123",
      AUTHORIZENET_TRANSACTION_KEY: "",
    });
    let message = "";
    try {
      createGateway(e);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/AUTHORIZENET_TRANSACTION_KEY/);
    expect(message).not.toContain("login-123");
  });
});
