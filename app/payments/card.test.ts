import { describe, expect, it } from "vitest";
import {
  CARD_MESSAGES,
  MAX_CARD_DIGITS,
  checkCard,
  checkCardNumber,
  checkCharge,
  checkExpiry,
  expiryFields,
  parseExpiry,
  splitExpiry,
} from "./card";
import type { ChargeRequest } from "./gateway";

/** 15 March 2026, noon in Michigan. */
const NOW = new Date("2026-03-15T16:00:00Z");

describe("the expiry as a person types it in one field", () => {
  it.each([
    ["12/29", "12", "29"],
    ["1229", "12", "29"],
    ["12 / 2029", "12", "2029"],
    ["12/2029", "12", "2029"],
    ["122029", "12", "2029"],
    [" 04/30 ", "04", "30"],
    ["4/30", "4", "30"],
    ["430", "4", "30"],
    ["12-29", "12", "29"],
    ["12 29", "12", "29"],
    ["12.29", "12", "29"],
  ])("%j is month %s, year %s", (typed, month, year) => {
    expect(splitExpiry(typed)).toEqual({ month, year });
  });

  it.each([
    "",
    "12",
    "12/",
    "/29",
    "12/9",
    "12/029",
    "12/20291",
    "12345",
    "1234567",
    "ab/cd",
    "12//29",
    "12/29/30",
    "-1/29",
  ])("%j is not an expiry", (typed) => {
    expect(splitExpiry(typed)).toBeNull();
  });

  it("every form a person types reads as the same card's expiry, with the one check", () => {
    for (const typed of ["12/29", "1229", "12 / 2029", "12/2029"]) {
      const { month, year } = expiryFields(typed, "");
      expect(parseExpiry(month, year), typed).toEqual({ month: 12, year: 2029 });
      expect(checkExpiry(month, year, NOW), typed).toBeUndefined();
    }
  });
});

describe("the expiry from a form's fields", () => {
  it("SPEC §3's month and year fields as an API client sends them", () => {
    expect(expiryFields("04", "30")).toEqual({ month: "04", year: "30" });
    expect(expiryFields(" 4 ", "2030")).toEqual({ month: "4", year: "2030" });
  });

  it("the pages' one field in the month's place, the year left empty or absent", () => {
    expect(expiryFields("04/30", "")).toEqual({ month: "04", year: "30" });
    expect(expiryFields("0430", undefined)).toEqual({ month: "04", year: "30" });
  });

  it("what cannot be split is handed on as typed, and refused by the check", () => {
    const unsplit = expiryFields("13", "");
    expect(unsplit).toEqual({ month: "13", year: "" });
    expect(checkExpiry(unsplit.month, unsplit.year, NOW)).toBe(CARD_MESSAGES.expiry);
    const empty = expiryFields("", undefined);
    expect(checkExpiry(empty.month, empty.year, NOW)).toBe(CARD_MESSAGES.expiry);
  });
});

describe("the expiry's check (America/Detroit)", () => {
  it("a month that is not one, a past month, this month and a year too far ahead", () => {
    expect(checkExpiry("13", "29", NOW)).toBe(CARD_MESSAGES.expiry);
    expect(checkExpiry("00", "29", NOW)).toBe(CARD_MESSAGES.expiry);
    expect(checkExpiry("02", "26", NOW)).toBe(CARD_MESSAGES.expired);
    expect(checkExpiry("03", "26", NOW)).toBeUndefined(); // good through the last day of its month
    expect(checkExpiry("12", "2045", NOW)).toBeUndefined();
    expect(checkExpiry("01", "2046", NOW)).toBe(CARD_MESSAGES.expiry);
  });

  it("the evening of a month's last day in Michigan is still that month (already the next in UTC)", () => {
    const lastEvening = new Date("2026-04-01T02:00:00Z"); // 31 March, 10 PM in Detroit
    expect(checkExpiry("03", "26", lastEvening)).toBeUndefined();
  });
});

describe("card numbers longer than the processor takes (at most 16 digits)", () => {
  // Luhn-valid numbers of brands that issue them longer than 16 digits.
  const long = [
    ["Visa, 19 digits", "4111 1111 1111 1111 110", "Visa"],
    ["UnionPay, 18 digits", "6212 3456 7890 0000 02", "UnionPay"],
    ["Discover, 19 digits", "6011-0000-0000-0000-001", "Discover"],
    ["JCB, 18 digits", "352800000000000007", "JCB"],
    ["20 digits (no card at all)", "4111 1111 1111 1111 1110", undefined],
  ] as const;

  it("the message names the limit the check uses", () => {
    expect(CARD_MESSAGES.numberLength).toBe(`Enter a card number of at most ${MAX_CARD_DIGITS} digits.`);
  });

  it.each(long)("%s: refused with that message, the brand still known for the field", (_name, number, brand) => {
    const checked = checkCardNumber(number);
    expect(checked).toMatchObject({ valid: false, message: CARD_MESSAGES.numberLength });
    expect(checked.brand).toBe(brand);
    expect(checkCard({ number, expMonth: "04", expYear: "30", cvc: "847", holder: "Ada Lovelace" }, NOW)).toMatchObject(
      {
        ok: false,
        errors: { number: CARD_MESSAGES.numberLength },
      },
    );
  });

  it("16 digits are taken; a bad number of 16 or fewer is still just invalid", () => {
    expect(checkCardNumber("4111 1111 1111 1111")).toEqual({ valid: true, brand: "Visa", cvcLength: 3 });
    expect(checkCardNumber("3782 822463 10005")).toMatchObject({ valid: true, brand: "American Express" });
    expect(checkCardNumber("4111 1111 1111 1112")).toMatchObject({ valid: false, message: CARD_MESSAGES.number });
    expect(checkCardNumber("4111 abcd")).toMatchObject({ valid: false, message: CARD_MESSAGES.number });
    expect(checkCardNumber("")).toMatchObject({ valid: false, message: CARD_MESSAGES.number });
  });

  it("every gateway refuses it before contacting anyone (checkCharge)", () => {
    const request: ChargeRequest = {
      amountCents: 100,
      currency: "USD",
      idempotencyKey: "k",
      card: { number: long[0][1], expMonth: "04", expYear: "30", cvc: "847", holder: "Ada Lovelace" },
      description: "d",
      reference: "L1",
    };
    expect(checkCharge(request, NOW)).toEqual({
      refused: { status: "declined", reason: "invalid", message: CARD_MESSAGES.numberLength },
    });
  });
});
