import { CARD_SECRET_FIELDS, CARD_SECRETS_NOTICE } from "~/forms/card-names";
import type { FormIdentity } from "~/forms/identity";
import { commercialServiceIdentity } from "~/forms/service/identity";

/**
 * The residential service booking, paid by card at booking (issue 16 items
 * 2–4; view: ./Form.tsx, handler: ./handle.server.ts). The commercial form's
 * photo rule, and the card number and CVC never sent back.
 */
export const residentialServiceIdentity = {
  id: "service-residential",
  uploads: commercialServiceIdentity.uploads,
  secretFields: CARD_SECRET_FIELDS,
  secretsNotice: CARD_SECRETS_NOTICE,
} satisfies FormIdentity;

/** The "Show price" button (no JavaScript): its name and value re-render the form with the price and the free slots. */
export const PREVIEW_FIELD = "intent";
export const PREVIEW_VALUE = "show-price";

export const RESIDENTIAL_SUCCESS = "Submitted successfully!";
/** Said when the processor's answer is unknown: booked, not confirmed as paid, not to be paid again. */
export const RESIDENTIAL_PENDING =
  "Your visit is booked and your payment is being confirmed with the card processor. Please do not pay again: we will contact you by e-mail or phone as soon as it is confirmed.";
