import { z } from "zod";
import { checkCard, checkCardNumber, checkExpiry, CARD_MESSAGES } from "~/payments/card";
import { requiredText } from "./schema-helpers";

/**
 * The card fields of every paid form (SPEC §3: cardHolder, cardNumber,
 * cardExpMonth, cardExpYear, cardCVC), with the shared card module's checks
 * (brand, Luhn, expiry in America/Detroit, CVC length per brand), so the
 * invoice, the residential service and the checkout say the same words on
 * both sides. Client-safe; the server decides.
 */
export const cardLabels = {
  cardHolder: "Cardholder Name",
  cardNumber: "Card Number",
  cardExpMonth: "Expiry Month (MM)",
  cardExpYear: "Expiry Year (YY)",
  cardCVC: "CVC",
} as const;

export const cardShape = {
  cardHolder: requiredText(cardLabels.cardHolder, 100),
  cardNumber: z
    .string({ error: CARD_MESSAGES.number })
    .trim()
    .max(30, CARD_MESSAGES.number)
    .refine((v) => checkCardNumber(v).valid, CARD_MESSAGES.number),
  cardExpMonth: z.string({ error: CARD_MESSAGES.expiry }).trim().max(2, CARD_MESSAGES.expiry),
  cardExpYear: z.string({ error: CARD_MESSAGES.expiry }).trim().max(4, CARD_MESSAGES.expiry),
  cardCVC: z
    .string({ error: CARD_MESSAGES.cvc })
    .trim()
    .regex(/^\d{1,4}$/, CARD_MESSAGES.cvc),
};

type CardValue = { cardHolder: string; cardNumber: string; cardExpMonth: string; cardExpYear: string; cardCVC: string };

/** Expiry and CVC depend on each other's fields (the brand sets the CVC's length): a superRefine for the whole form. */
export function refineCard(value: CardValue, ctx: z.RefinementCtx): void {
  const expiry = checkExpiry(value.cardExpMonth, value.cardExpYear);
  if (expiry) ctx.addIssue({ code: "custom", path: ["cardExpMonth"], message: expiry });
  const card = checkCard({
    number: value.cardNumber,
    expMonth: value.cardExpMonth,
    expYear: value.cardExpYear,
    cvc: value.cardCVC,
    holder: value.cardHolder,
  });
  if (!card.ok && card.errors.cvc && checkCardNumber(value.cardNumber).valid) {
    ctx.addIssue({ code: "custom", path: ["cardCVC"], message: card.errors.cvc });
  }
  // A name the gateway's checks refuse (one letter) is refused here, beside its field, not after a charge attempt.
  if (!card.ok && card.errors.holder && value.cardHolder.trim()) {
    ctx.addIssue({ code: "custom", path: ["cardHolder"], message: card.errors.holder });
  }
}

/** What a gateway is given from the form's card fields. */
export function cardInput(value: CardValue) {
  return {
    number: value.cardNumber,
    expMonth: value.cardExpMonth,
    expYear: value.cardExpYear,
    cvc: value.cardCVC,
    holder: value.cardHolder,
  };
}
