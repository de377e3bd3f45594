import type { z } from "~/lib/zod";
import { CARD_SECRET_FIELDS, CARD_SECRETS_NOTICE } from "../card-names";
import type { FormIdentity } from "../identity";
import type { invoiceSchema } from "./schema";

/**
 * The invoice payment (its view: ./Form.tsx; its handler: ./handle.server.ts).
 * The card number and the CVC are never sent back: not re-rendered after a
 * refusal (a declined card included), not in hydration data, so never in a
 * cached document (DECISIONS 29). The expiry and the cardholder's name are
 * kept: they are not secrets, and re-typing them helps no one.
 */
export const invoiceIdentity = {
  id: "invoice",
  secretFields: CARD_SECRET_FIELDS satisfies readonly (keyof z.input<typeof invoiceSchema>)[],
  secretsNotice: CARD_SECRETS_NOTICE,
} satisfies FormIdentity;

/** SPEC §8's success text (the receipt page shows it with the receipt line). */
export const INVOICE_SUCCESS = "Submitted successfully!";
/** Said when the processor's answer is unknown: not paid, not to be paid again, the company calls back. */
export const INVOICE_PENDING =
  "Your payment is being confirmed with the card processor. Please do not pay again: we will contact you by e-mail or phone as soon as it is confirmed.";
