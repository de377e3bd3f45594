import { z } from "~/lib/zod";
import { checkCard, checkCardNumber, checkExpiry, expiryFields, CARD_MESSAGES } from "~/payments/card";
import { requiredText } from "./schema-helpers";

/**
 * THE card entry's checks (docs/decisions/059-one-card-entry.md), client-safe: the booking,
 * the invoice, the booking's move and the checkout run them in the browser and on the server,
 * with the shared card module's verdicts (brand, Luhn, expiry in America/Detroit, CVC length
 * per brand), so all of them say the same words. The fields a person sees are the same in
 * every form (the cardholder's name where the form asks it, the number, the expiry as MM/YY
 * in one field, the CVC); the names they post are their payload's (SPEC §3/§7):
 *
 *   booking, invoice  cardHolder, cardNumber, cardExpMonth (holding MM/YY), cardExpYear (none), cardCVC
 *   checkout          (name), cardNumber, expiry, cvv
 *
 * SPEC's month and year posted apart (an API client's cardExpMonth "12", cardExpYear "29") are
 * read as well: `expiryFields` reads either.
 */
export const CARD_ENTRY_LABELS = {
  holder: "Cardholder Name",
  number: "Card Number",
  expiry: "Expiry (MM/YY)",
  cvc: "CVC",
} as const;

/** The SPEC §3 names' labels (summaries and API messages read them). */
export const cardLabels = {
  cardHolder: CARD_ENTRY_LABELS.holder,
  cardNumber: CARD_ENTRY_LABELS.number,
  cardExpMonth: CARD_ENTRY_LABELS.expiry,
  cardExpYear: "Expiry Year",
  cardCVC: CARD_ENTRY_LABELS.cvc,
} as const;

/** The card number, the expiry as typed ("12/29", "1229", "12 / 2029", or a month alone beside its year) and the CVC: the same fields whatever a form calls them. */
export const cardNumberField = z
  .string({ error: CARD_MESSAGES.number })
  .trim()
  .max(30, CARD_MESSAGES.number)
  .superRefine((v, ctx) => {
    // One message: a number too long for the processor is told so, not called invalid.
    const { message } = checkCardNumber(v);
    if (message) ctx.addIssue({ code: "custom", message });
  });
export const cardExpiryField = z.string({ error: CARD_MESSAGES.expiry }).trim().max(12, CARD_MESSAGES.expiry);
export const cardCvcField = z
  .string({ error: CARD_MESSAGES.cvc })
  .trim()
  .regex(/^\d{1,4}$/, CARD_MESSAGES.cvc);

export const cardShape = {
  cardHolder: requiredText(cardLabels.cardHolder, 100),
  cardNumber: cardNumberField,
  cardExpMonth: cardExpiryField,
  /** Empty from the pages (their one expiry field posts as cardExpMonth); SPEC's year from an API client. */
  cardExpYear: z.string().trim().max(4, CARD_MESSAGES.expiry).optional(),
  cardCVC: cardCvcField,
};

type CardValue = {
  cardHolder: string;
  cardNumber: string;
  cardExpMonth: string;
  cardExpYear?: string;
  cardCVC: string;
};

/** Where a form keeps the card's parts (the checkout: `expiry`, `cvv`, the buyer's `name`), and what it says of a bad name. */
export type CardFieldPaths = { expiry: string; cvc: string; holder: string; holderMessage?: string };

const SPEC_PATHS: CardFieldPaths = { expiry: "cardExpMonth", cvc: "cardCVC", holder: "cardHolder" };

/**
 * THE card checks of every paid form (the booking, the invoice, the checkout): expiry in the
 * company's time zone, the CVC's length for the number's brand, a cardholder name the gateway
 * takes. `card` is the gateway's input (`cardInput`, the checkout's `cardOf`); `paths` say
 * beside which field each refusal goes.
 */
export function checkCardFields(card: CardInputValue, ctx: z.RefinementCtx, paths: CardFieldPaths = SPEC_PATHS): void {
  const expiryError = checkExpiry(card.expMonth, card.expYear);
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

type CardInputValue = { number: string; expMonth: string; expYear: string; cvc: string; holder: string };

/** What a gateway is given from the form's card fields: the expiry split into month and year however it was typed. */
export function cardInput(value: CardValue): CardInputValue {
  const expiry = expiryFields(value.cardExpMonth, value.cardExpYear);
  return {
    number: value.cardNumber,
    expMonth: expiry.month,
    expYear: expiry.year,
    cvc: value.cardCVC,
    holder: value.cardHolder,
  };
}
