import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { parseEnv } from "~/lib/env.server";
import { createTestDatabase } from "../../tests/support/db";
import { createGateway, paymentConfigProblems } from "./gateway.server";
import type { ChargeRequest } from "./gateway";

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
    expect(() => parseEnv({ SANDBOX_SETTLEMENT: "never" })).toThrow(/SANDBOX_SETTLEMENT/);
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

describe("the sandbox's settlement setting", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await createTestDatabase({ seed: false });
  });
  afterAll(async () => {
    await conn?.close();
  });
  const request = (reference: string): ChargeRequest => ({
    amountCents: 1000,
    currency: "USD",
    idempotencyKey: reference,
    card: { number: "4242424242424242", expMonth: "04", expYear: "30", cvc: "123", holder: "Ada Lovelace" },
    description: "Test",
    reference,
  });

  it("cutoff by default: a charge made now is not settled yet; immediate: settled at once, refundable", async () => {
    expect(parseEnv({}).SANDBOX_SETTLEMENT).toBe("cutoff");
    const cutoff = createGateway(parseEnv({}), conn.db);
    const first = await cutoff.charge(request("L1"));
    expect(first).toMatchObject({ status: "approved" });
    const firstId = (first as { transactionId: string }).transactionId;
    expect(await cutoff.lookup(firstId)).toMatchObject({ status: "found", transaction: { settled: false } });
    expect(await cutoff.refund(firstId, 1000, "4242", "L2")).toMatchObject({ status: "declined" });

    const immediate = createGateway(parseEnv({ SANDBOX_SETTLEMENT: "immediate" }), conn.db);
    const second = await immediate.charge(request("L3"));
    const secondId = (second as { transactionId: string }).transactionId;
    expect(await immediate.lookup(secondId)).toMatchObject({ status: "found", transaction: { settled: true } });
    expect(await immediate.refund(secondId, 1000, "4242", "L4")).toMatchObject({ status: "approved" });
    // One processor: either gateway sees the other's transactions.
    expect(await cutoff.findByReference("L4", new Date(0))).toMatchObject({
      status: "found",
      transaction: { type: "refund" },
    });
  });
});
