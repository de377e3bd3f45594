import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { CARD_MESSAGES } from "~/payments/card";
import { CHECKOUT_NAME_MESSAGE, cardOf, checkoutSchema } from "~/shop/checkout/schema";
import { cardInput, cardShape, refineCard } from "./card-schema";

const card = { cardNumber: "4242 4242 4242 4242", cardExpMonth: "04", cardExpYear: "30", cardCVC: "847" };
const paidForm = z.object(cardShape).superRefine(refineCard);
const errorsOf = (result: { success: boolean; error?: z.ZodError }) =>
  result.success ? {} : z.flattenError(result.error!).fieldErrors;

describe("a cardholder's name the card checks refuse is refused by the form, beside its field", () => {
  it("paid forms: one letter in Cardholder Name", () => {
    expect(errorsOf(paidForm.safeParse({ ...card, cardHolder: "S" }))).toEqual({ cardHolder: [CARD_MESSAGES.holder] });
    expect(paidForm.safeParse({ ...card, cardHolder: "Sam Lee" }).success).toBe(true);
  });

  it("checkout: one letter in Full Name, which is the cardholder's", () => {
    const order = {
      email: "x@example.com",
      phone: "(810) 555-0142",
      address: "12 Saginaw St",
      city: "Flint",
      state: "MI",
      zip: "48502",
      cardNumber: card.cardNumber,
      expiry: "04/30",
      cvv: "847",
    };
    expect(errorsOf(checkoutSchema.safeParse({ ...order, name: "X" }))).toEqual({ name: [CHECKOUT_NAME_MESSAGE] });
    expect(checkoutSchema.safeParse({ ...order, name: "Xi Li" }).success).toBe(true);
  });
});

describe("one card entry: the same expiry readings and messages on the SPEC §3 forms and the checkout", () => {
  const order = {
    name: "Ada Lovelace",
    email: "x@example.com",
    phone: "(810) 555-0142",
    address: "12 Saginaw St",
    city: "Flint",
    state: "MI",
    zip: "48502",
    cardNumber: card.cardNumber,
    cvv: "847",
  };
  const spec = (expiry: string) => ({ ...card, cardHolder: "Sam Lee", cardExpMonth: expiry, cardExpYear: undefined });

  it.each(["12/29", "1229", "12 / 2029", "12/2029", "04/30"])("%j is taken by both", (expiry) => {
    expect(errorsOf(paidForm.safeParse(spec(expiry)))).toEqual({});
    expect(errorsOf(checkoutSchema.safeParse({ ...order, expiry }))).toEqual({});
  });

  it.each([
    ["13/29", CARD_MESSAGES.expiry],
    ["12", CARD_MESSAGES.expiry],
    ["01/20", CARD_MESSAGES.expired],
  ])("%j gets the same message beside each form's own field", (expiry, message) => {
    expect(errorsOf(paidForm.safeParse(spec(expiry)))).toEqual({ cardExpMonth: [message] });
    expect(errorsOf(checkoutSchema.safeParse({ ...order, expiry }))).toEqual({ expiry: [message] });
  });

  it("the CVC's length for the brand: the same message, at cardCVC and at cvv", () => {
    const amex = "3782 822463 10005";
    expect(errorsOf(paidForm.safeParse({ ...spec("04/30"), cardNumber: amex }))).toEqual({
      cardCVC: [CARD_MESSAGES.cvc],
    });
    expect(errorsOf(checkoutSchema.safeParse({ ...order, expiry: "04/30", cardNumber: amex }))).toEqual({
      cvv: [CARD_MESSAGES.cvc],
    });
  });

  it("the gateway is given the month and year however the expiry was typed", () => {
    expect(cardInput({ ...spec("1229"), cardExpYear: "" })).toMatchObject({ expMonth: "12", expYear: "29" });
    expect(cardInput({ ...spec("04"), cardExpYear: "2030" })).toMatchObject({ expMonth: "04", expYear: "2030" });
    expect(cardOf({ ...order, expiry: "12 / 2029" })).toMatchObject({ expMonth: "12", expYear: "2029" });
  });
});

describe("a card number longer than the processor takes is refused at its field, with its own message", () => {
  const nineteen = "4111 1111 1111 1111 110"; // a Luhn-valid 19-digit Visa

  it("paid forms: one message at cardNumber, nothing else", () => {
    expect(errorsOf(paidForm.safeParse({ ...card, cardHolder: "Sam Lee", cardNumber: nineteen }))).toEqual({
      cardNumber: [CARD_MESSAGES.numberLength],
    });
  });

  it("checkout: the same message at its cardNumber", () => {
    const order = {
      name: "Ada Lovelace",
      email: "x@example.com",
      phone: "(810) 555-0142",
      address: "12 Saginaw St",
      city: "Flint",
      state: "MI",
      zip: "48502",
      cardNumber: nineteen,
      expiry: "04/30",
      cvv: "847",
    };
    expect(errorsOf(checkoutSchema.safeParse(order))).toEqual({ cardNumber: [CARD_MESSAGES.numberLength] });
  });

  it("a mistyped number keeps the general message", () => {
    expect(errorsOf(paidForm.safeParse({ ...card, cardHolder: "Sam Lee", cardNumber: "4242 4242 4242 4241" }))).toEqual(
      { cardNumber: [CARD_MESSAGES.number] },
    );
  });
});
