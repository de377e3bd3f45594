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

/** The card number and CVC fields: the same checks whatever a form calls them. */
export const cardNumberField = z
  .string({ error: CARD_MESSAGES.number })
  .trim()
  .max(30, CARD_MESSAGES.number)
  .refine((v) => checkCardNumber(v).valid, CARD_MESSAGES.number);
export const cardCvcField = z
  .string({ error: CARD_MESSAGES.cvc })
  .trim()
  .regex(/^\d{1,4}$/, CARD_MESSAGES.cvc);

export const cardShape = {
  cardHolder: requiredText(cardLabels.cardHolder, 100),
  cardNumber: cardNumberField,
  cardExpMonth: z.string({ error: CARD_MESSAGES.expiry }).trim().max(2, CARD_MESSAGES.expiry),
  cardExpYear: z.string({ error: CARD_MESSAGES.expiry }).trim().max(4, CARD_MESSAGES.expiry),
  cardCVC: cardCvcField,
};

type CardValue = { cardHolder: string; cardNumber: string; cardExpMonth: string; cardExpYear: string; cardCVC: string };

/** Where a form keeps the card's parts (the checkout: `expiry`, `cvv`, the buyer's `name`), and what it says of a bad name. */
export type CardFieldPaths = { expiry: string; cvc: string; holder: string; holderMessage?: string };

const SPEC_PATHS: CardFieldPaths = { expiry: "cardExpMonth", cvc: "cardCVC", holder: "cardHolder" };

/**
 * THE card checks of every paid form (the booking, the invoice, the checkout): expiry in the
 * company's time zone, the CVC's length for the number's brand, a cardholder name the gateway
 * takes. `card` is the gateway's input; `paths` say beside which field each refusal goes.
 */
export function checkCardFields(
  card: ReturnType<typeof cardInput>,
  ctx: z.RefinementCtx,
  paths: CardFieldPaths = SPEC_PATHS,
  expiryError: string | null | undefined = checkExpiry(card.expMonth, card.expYear),
): void {
  if (expiryError) ctx.addIssue({ code: "custom", path: [paths.expiry], message: expiryError });
  const checked = checkCard(card);
  if (!checked.ok && checked.errors.cvc && checkCardNumber(card.number).valid) {
    ctx.addIssue({ code: "custom", path: [paths.cvc], message: checked.errors.cvc });
  }
  // A name the gateway's checks refuse (one letter) is refused here, beside its field, not after a charge attempt.
  if (!checked.ok && checked.errors.holder && card.holder.trim()) {
    ctx.addIssue({ code: "custom", path: [paths.holder], message: paths.holderMessage ?? checked.errors.holder });
  }
}

/** The SPEC §3 card fields' refinement (expiry and CVC depend on each other's fields): a superRefine for the whole form. */
export function refineCard(value: CardValue, ctx: z.RefinementCtx): void {
  checkCardFields(cardInput(value), ctx);
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
