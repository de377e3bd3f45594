import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { CARD_MESSAGES } from "~/payments/card";
import { AMOUNT_MESSAGES, amountProblem, invoiceAmountCents, invoiceSchema } from "./schema";

const form = {
  name: "Grace Hopper",
  email: "grace@example.com",
  address: "12 Saginaw St",
  city: "Flint",
  state: "MI",
  zip: "48502",
  invoice_number: "INV-1001",
  invoice_payment_amount: "250.50",
  cardHolder: "Grace Hopper",
  cardNumber: "4242 4242 4242 4242",
  cardExpMonth: "04/30",
  cardCVC: "847",
};
const errorsOf = (input: Record<string, unknown>) => {
  const result = invoiceSchema.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
};

describe("the invoice amount as people type it", () => {
  it.each([
    ["1,000", 100_000],
    ["$1,000.50", 100_050],
    [" 250 ", 25_000],
    ["250.5", 25_050],
    ["$ 250", 25_000],
    ["1000", 100_000],
    ["100,000", 10_000_000],
    [".99", 99],
    ["0.01", 1],
  ])("%j is %i cents", (typed, cents) => {
    expect(invoiceAmountCents(typed)).toBe(cents);
    expect(amountProblem(typed)).toBeUndefined();
  });

  it.each([
    ["12.345", AMOUNT_MESSAGES.decimals],
    ["1,000.505", AMOUNT_MESSAGES.decimals],
    ["1,00", AMOUNT_MESSAGES.commas],
    ["10,00.50", AMOUNT_MESSAGES.commas],
    ["1000,50", AMOUNT_MESSAGES.commas],
    ["abc", AMOUNT_MESSAGES.format],
    ["-5", AMOUNT_MESSAGES.format],
    ["1e3", AMOUNT_MESSAGES.format],
    ["1 000", AMOUNT_MESSAGES.format],
    ["$", AMOUNT_MESSAGES.format],
    ["USD 50", AMOUNT_MESSAGES.format],
    ["0", AMOUNT_MESSAGES.range],
    ["0.00", AMOUNT_MESSAGES.range],
    ["100,000.01", AMOUNT_MESSAGES.range],
  ])("%j is refused with what to change", (typed, message) => {
    expect(invoiceAmountCents(typed)).toBeNull();
    expect(amountProblem(typed)).toBe(message);
  });

  it("the refusal names what the field takes: the dollar sign and the commas included", () => {
    expect(AMOUNT_MESSAGES.format).toMatch(/\$/);
    expect(AMOUNT_MESSAGES.format).toMatch(/commas/);
    expect(errorsOf({ ...form, invoice_payment_amount: "1,000" })).toEqual({});
    expect(errorsOf({ ...form, invoice_payment_amount: "12,5" })).toEqual({
      invoice_payment_amount: [AMOUNT_MESSAGES.commas],
    });
  });
});

describe("the invoice's card expiry: one MM/YY field, or SPEC's month and year", () => {
  it.each(["12/29", "1229", "12 / 2029", "12/2029"])("%j in the one field is taken", (typed) => {
    expect(errorsOf({ ...form, cardExpMonth: typed })).toEqual({});
  });

  it("SPEC §3's cardExpMonth and cardExpYear apart (an API client) are taken too", () => {
    expect(errorsOf({ ...form, cardExpMonth: "04", cardExpYear: "30" })).toEqual({});
  });

  it("a month alone, a 13th month or a past month is refused beside the one field", () => {
    expect(errorsOf({ ...form, cardExpMonth: "04" })).toEqual({ cardExpMonth: [CARD_MESSAGES.expiry] });
    expect(errorsOf({ ...form, cardExpMonth: "13/29" })).toEqual({ cardExpMonth: [CARD_MESSAGES.expiry] });
    expect(errorsOf({ ...form, cardExpMonth: "01/20" })).toEqual({ cardExpMonth: [CARD_MESSAGES.expired] });
  });
});
