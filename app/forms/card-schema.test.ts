import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CARD_MESSAGES } from "~/payments/card";
import { CHECKOUT_NAME_MESSAGE, checkoutSchema } from "~/shop/checkout/schema";
import { cardShape, refineCard } from "./card-schema";

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
