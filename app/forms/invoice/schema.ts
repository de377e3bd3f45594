import { z } from "~/lib/zod";
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
  format: "Use digits, an optional $ and commas, and at most 2 decimals, like 1,250.50.",
  decimals: "Use at most 2 decimals (cents), like 1,250.50.",
  commas: "Put a comma only between groups of three digits, like 1,250.50, or leave the commas out.",
  range: "The amount must be more than $0 and at most $100,000.",
} as const;

/**
 * The amount as people type it, in cents (~/payments/money.ts parseDollars, the one reading
 * of dollars): "1,000", "$1,000.50", " 250 ", "250.5", more than 0 and at most $100,000.
 * Otherwise null. The server charges this reading, never a posted total.
 */
export function invoiceAmountCents(text: string): number | null {
  const cents = parseDollars(text);
  return cents !== null && cents > 0 && cents <= MAX_INVOICE_CENTS ? cents : null;
}

/** Why a typed amount is not one, in the words that say what to change; undefined when it is one. */
export function amountProblem(text: string): string | undefined {
  const cents = parseDollars(text);
  if (cents !== null) return cents > 0 && cents <= MAX_INVOICE_CENTS ? undefined : AMOUNT_MESSAGES.range;
  const typed = text.trim().replace(/^\$\s*/, "");
  // Only what the form takes, in the wrong place or number: say which.
  if (/^[\d,]*(\.\d*)?$/.test(typed) && /\d/.test(typed)) {
    if (/\.\d{3,}$/.test(typed)) return AMOUNT_MESSAGES.decimals;
    if (typed.includes(",")) return AMOUNT_MESSAGES.commas;
  }
  return AMOUNT_MESSAGES.format;
}

const amountField = requiredText(invoiceLabels.invoice_payment_amount, 20).superRefine((text, ctx) => {
  const problem = amountProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
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
