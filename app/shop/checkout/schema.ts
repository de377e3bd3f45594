import { z } from "~/lib/zod";
import { emailField, phoneField, requiredText } from "~/forms/schema-helpers";
import {
  CARD_ENTRY_LABELS,
  cardCvcField,
  cardExpiryField,
  cardNumberField,
  checkCardFields,
} from "~/forms/card-schema";
import { expiryFields } from "~/payments/card";
import { checkInstallation, INSTALLATION_CHECK, installationFields } from "./installation";

/**
 * SPEC §3 Checkout payload, §5 Checkout (client-safe: Conform runs it in the
 * browser, the pipeline on the server). Every billing and card field is
 * required; the card goes through the shared card module's checks (brand,
 * Luhn, expiry in America/Detroit, CVC length per brand), the one expiry
 * field read as month and year however it was typed ("12/29", "1229",
 * "12 / 2029": ~/payments/card.ts splitExpiry), with the labels and messages
 * of every paid form's card entry. `total` is never charged: the server
 * charges the cart's own total (DECISIONS 12), and refuses the order when a
 * posted total differs from it (./handle.server.ts).
 */
export const checkoutLabels = {
  name: "Full Name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  city: "City",
  state: "State",
  zip: "ZIP Code",
  // The card entry's (~/forms/card-schema.ts): the same words on every paid form, "CVC" included.
  cardNumber: CARD_ENTRY_LABELS.number,
  expiry: CARD_ENTRY_LABELS.expiry,
  cvv: CARD_ENTRY_LABELS.cvc,
} as const;

/** The Full Name is the cardholder's name, which the card checks want 2 to 100 characters long. */
export const CHECKOUT_NAME_MESSAGE = "Enter your full name as it appears on the card.";

export const checkoutSchema = z
  .object({
    name: requiredText(checkoutLabels.name, 100),
    email: emailField(checkoutLabels.email),
    phone: phoneField(checkoutLabels.phone),
    address: requiredText(checkoutLabels.address, 200),
    city: requiredText(checkoutLabels.city, 100),
    state: requiredText(checkoutLabels.state, 50),
    zip: requiredText(checkoutLabels.zip, 12),
    cardNumber: cardNumberField,
    expiry: cardExpiryField,
    cvv: cardCvcField,
    /** SPEC §7 sends it: the total the buyer was shown, compared with the cart's, never charged. */
    total: z.unknown().optional(),
    // Where to install (DECISIONS 34; optional in SPEC §7's payload: absent, the billing address).
    ...installationFields,
  })
  .superRefine((value, ctx) => {
    // The expiry, the CVV, and the Full Name as the cardholder's: the shared checks.
    checkCardFields(cardOf(value), ctx, {
      expiry: "expiry",
      cvc: "cvv",
      holder: "name",
      holderMessage: CHECKOUT_NAME_MESSAGE,
    });
  })
  .superRefine(checkInstallation, INSTALLATION_CHECK);

export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** What the gateway is given: the card with its expiry split, the buyer's name as the cardholder. */
export function cardOf(value: Pick<CheckoutInput, "name" | "cardNumber" | "expiry" | "cvv">) {
  const expiry = expiryFields(value.expiry, undefined);
  return {
    number: value.cardNumber,
    expMonth: expiry.month,
    expYear: expiry.year,
    cvc: value.cvv,
    holder: value.name,
  };
}
