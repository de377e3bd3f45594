import { z } from "zod";
import { parseDollars } from "~/payments/money";
import { cardLabels, cardShape, refineCard } from "../card-schema";
import { emailField, optionalText, requiredText } from "../schema-helpers";

/**
 * SPEC §3 Invoice payment, §5 Invoice (client-safe: Conform runs it in the
 * browser, the pipeline on the server). The card checks are the shared card
 * module's (brand, Luhn, expiry in America/Detroit, CVC length per brand), so
 * both sides say the same words; the server decides.
 */
export const invoiceLabels = {
  name: "Name",
  email: "Email",
  address: "Address",
  address_2: "Address 2",
  city: "City",
  state: "State",
  zip: "ZIP Code",
  invoice_number: "Invoice Number",
  invoice_payment_amount: "Payment Amount",
  ...cardLabels,
} as const;

/** The largest amount the form takes: $100,000.00. */
export const MAX_INVOICE_CENTS = 10_000_000;

export const AMOUNT_MESSAGES = {
  format: "Enter the amount in dollars, like 250 or 250.50 (at most 2 decimals).",
  range: "The amount must be more than $0 and at most $100,000.",
} as const;

/**
 * The amount typed, in cents, when it is one the form takes: digits with an
 * optional point and at most two decimals (no sign, no "$", no commas), more
 * than 0 and at most $100,000. Otherwise null.
 */
export function invoiceAmountCents(text: string): number | null {
  if (!/^\d{1,9}(\.\d{0,2})?$/.test(text.trim())) return null;
  const cents = parseDollars(text.trim());
  return cents !== null && cents > 0 && cents <= MAX_INVOICE_CENTS ? cents : null;
}

const amountField = requiredText(invoiceLabels.invoice_payment_amount, 20).superRefine((text, ctx) => {
  if (!/^\d{1,9}(\.\d{0,2})?$/.test(text)) ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGES.format });
  else if (invoiceAmountCents(text) === null) ctx.addIssue({ code: "custom", message: AMOUNT_MESSAGES.range });
});

export const invoiceSchema = z
  .object({
    name: requiredText(invoiceLabels.name, 100),
    email: emailField(invoiceLabels.email),
    address: requiredText(invoiceLabels.address, 200),
    address_2: optionalText(invoiceLabels.address_2, 200),
    city: requiredText(invoiceLabels.city, 100),
    state: requiredText(invoiceLabels.state, 50),
    zip: requiredText(invoiceLabels.zip, 12),
    invoice_number: requiredText(invoiceLabels.invoice_number, 50),
    invoice_payment_amount: amountField,
    ...cardShape,
  })
  .superRefine(refineCard);
