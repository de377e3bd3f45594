import { describe, expect, it } from "vitest";
import { CARD_MESSAGES, checkCard } from "./card";
import type { CardInput, ChargeRequest } from "./gateway";
import { createSandboxGateway, SANDBOX_CARDS, sandboxTransactionId } from "./sandbox.server";

/** The default gateway: the checks every charge passes first, then the test cards. */
const NOW = new Date("2026-04-15T16:00:00Z");
const sandbox = createSandboxGateway({ now: () => NOW });
const card = (over: Partial<CardInput> = {}): CardInput => ({
  number: "4242 4242 4242 4242",
  expMonth: "04",
  expYear: "30",
  cvc: "123",
  holder: "Ada Lovelace",
  ...over,
});
const charge = (over: Partial<CardInput> = {}, key = "key-1"): ChargeRequest => ({
  amountCents: 25050,
  currency: "USD",
  idempotencyKey: key,
  card: card(over),
  description: "Invoice 1001",
});

describe("sandbox gateway", () => {
  it("4242 4242 4242 4242 approves: a transaction id, the brand and the last four only", async () => {
    const result = await sandbox.charge(charge());
    expect(result).toEqual({
      status: "approved",
      transactionId: sandboxTransactionId("key-1"),
      brand: "Visa",
      last4: "4242",
    });
    expect(JSON.stringify(result)).not.toContain("42424242");
    expect(JSON.stringify(result)).not.toContain("123");
  });

  it("the same key gives the same transaction id on any instance (derived, not remembered)", async () => {
    const other = createSandboxGateway({ now: () => NOW });
    const a = await sandbox.charge(charge({}, "same"));
    const b = await other.charge(charge({}, "same"));
    const c = await sandbox.charge(charge({}, "different"));
    expect(a).toEqual(b);
    expect(c.status === "approved" && a.status === "approved" && c.transactionId !== a.transactionId).toBe(true);
  });

  it("4000 0000 0000 0002 is declined with 'Your card was declined.'", async () => {
    expect(await sandbox.charge(charge({ number: "4000 0000 0000 0002" }))).toEqual({
      status: "declined",
      reason: "card",
      message: "Your card was declined.",
    });
  });

  it("4000 0000 0000 0119 answers unknown (the pending path without a processor)", async () => {
    expect(await sandbox.charge(charge({ number: SANDBOX_CARDS.unknown }))).toMatchObject({ status: "unknown" });
  });

  it("other valid numbers approve, with their brand", async () => {
    expect(await sandbox.charge(charge({ number: "5555-5555-5555-4444" }))).toMatchObject({
      status: "approved",
      brand: "Mastercard",
      last4: "4444",
    });
    expect(await sandbox.charge(charge({ number: "3782 822463 10005", cvc: "1234" }))).toMatchObject({
      status: "approved",
      brand: "American Express",
      last4: "0005",
    });
    expect(await sandbox.charge(charge({ number: "6011111111111117" }))).toMatchObject({
      status: "approved",
      brand: "Discover",
    });
  });

  it("an invalid Luhn number, an unknown brand, letters: refused before anything", async () => {
    for (const number of ["4242 4242 4242 4241", "1234 5678 1234 5670", "4242 4242 4242 424x", "4242", ""]) {
      expect(await sandbox.charge(charge({ number })), number).toEqual({
        status: "declined",
        reason: "invalid",
        message: CARD_MESSAGES.number,
      });
    }
  });

  it("expired: good through the last day of its month in Detroit, not in UTC", async () => {
    const april = card({ expMonth: "4", expYear: "2026" });
    // 30 April 2026, 23:30 in Detroit = 1 May, 03:30 UTC: still good.
    expect(checkCard(april, new Date("2026-05-01T03:30:00Z"))).toMatchObject({ ok: true });
    // 1 May, 00:30 in Detroit: expired.
    expect(checkCard(april, new Date("2026-05-01T04:30:00Z"))).toMatchObject({
      ok: false,
      errors: { expiry: CARD_MESSAGES.expired },
    });
    expect(await sandbox.charge(charge({ expMonth: "03", expYear: "26" }))).toEqual({
      status: "declined",
      reason: "invalid",
      message: CARD_MESSAGES.expired,
    });
  });

  it("an expiry that is not a month and a year, or beyond any card's life", async () => {
    for (const [expMonth, expYear] of [
      ["13", "30"],
      ["0", "30"],
      ["ab", "30"],
      ["04", "3"],
      ["04", "20300"],
      ["04", "2099"],
    ]) {
      expect(
        await sandbox.charge(charge({ expMonth: expMonth!, expYear: expYear! })),
        `${expMonth}/${expYear}`,
      ).toMatchObject({
        status: "declined",
        reason: "invalid",
        message: CARD_MESSAGES.expiry,
      });
    }
  });

  it("a bad CVC: not digits, too short, too long, or not the brand's length", async () => {
    for (const cvc of ["12", "12a", "12345", "", "1234"]) {
      expect(await sandbox.charge(charge({ cvc })), cvc).toEqual({
        status: "declined",
        reason: "invalid",
        message: CARD_MESSAGES.cvc,
      });
    }
    // American Express takes four digits, not three.
    expect(await sandbox.charge(charge({ number: "378282246310005", cvc: "123" }))).toMatchObject({
      message: CARD_MESSAGES.cvc,
    });
  });

  it("every failing field is named (the form shows them all)", () => {
    expect(
      checkCard(card({ number: "4242424242424241", expMonth: "1", expYear: "2020", cvc: "1", holder: " " }), NOW),
    ).toEqual({
      ok: false,
      errors: {
        number: CARD_MESSAGES.number,
        expiry: CARD_MESSAGES.expired,
        cvc: CARD_MESSAGES.cvc,
        holder: CARD_MESSAGES.holder,
      },
      brand: "Visa",
    });
  });

  it("void and refund of a sandbox transaction", async () => {
    const id = sandboxTransactionId("key-1");
    expect(await sandbox.void(id)).toEqual({ status: "approved", transactionId: id });
    expect(await sandbox.refund(id, 25050, "4242")).toMatchObject({ status: "approved" });
    expect(await sandbox.void("12345")).toMatchObject({ status: "declined" });
  });

  it("amounts are whole cents", async () => {
    await expect(sandbox.charge({ ...charge(), amountCents: 250.5 })).rejects.toThrow(RangeError);
    await expect(sandbox.charge({ ...charge(), amountCents: 0 })).rejects.toThrow(RangeError);
  });
});
