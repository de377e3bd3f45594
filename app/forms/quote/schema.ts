import { z } from "~/lib/zod";
import {
  COMMERCIAL_QUOTE_FOR,
  CONSULTATION_VALUES,
  CONTACT_METHODS,
  QUOTE_TYPES,
  RESIDENTIAL_QUOTE_FOR,
  START_TIMES,
  YES_NO,
  quoteForOptions,
} from "../options";
import { choice, emailField, optionalText, phoneField, requiredText } from "../schema-helpers";

/**
 * SPEC §3 Quote request, §5 rules. The full form (/request-quote?type=…)
 * adds existing_customer, business_name (commercial), photos and quote_type;
 * the simple form embedded on product pages (DECISIONS 9) omits them.
 */
export const quoteLabels = {
  first_name: "First Name",
  last_name: "Last Name",
  phone: "Phone",
  email: "Email",
  zip: "ZIP Code",
  business_name: "Business Name",
  quote_for: "What would you like a quote for?",
  description: "Tell us about your project",
  contact_method: "Preferred contact method",
  start_time: "When would you like to start?",
  financing: "Are you interested in financing?",
  consultation: "How would you like to meet?",
  existing_customer: "Are you an existing customer?",
  quote_type: "Quote type",
} as const;

const common = {
  first_name: requiredText(quoteLabels.first_name, 100),
  last_name: requiredText(quoteLabels.last_name, 100),
  phone: phoneField(quoteLabels.phone),
  email: emailField(quoteLabels.email),
  zip: requiredText(quoteLabels.zip, 12),
  description: optionalText("Project description", 5000),
  contact_method: choice("Please choose how we should contact you.", CONTACT_METHODS),
  // Marked with an asterisk in the original but not enforced (SPEC §5).
  quote_for: z.array(z.string().trim().max(100)).max(20).default([]),
  financing: choice("Please tell us whether you are interested in financing.", YES_NO),
  consultation: choice("Please choose how you would like to meet.", CONSULTATION_VALUES),
  start_time: choice("Please choose when you would like to start.", START_TIMES),
};

function checkQuoteFor(value: { quote_for: string[]; quote_type?: string }, ctx: z.RefinementCtx) {
  const allowed: readonly string[] =
    value.quote_type === "Commercial" || value.quote_type === "Residential"
      ? quoteForOptions(value.quote_type)
      : [...RESIDENTIAL_QUOTE_FOR, ...COMMERCIAL_QUOTE_FOR];
  if (value.quote_for.some((item) => !allowed.includes(item))) {
    ctx.addIssue({ code: "custom", path: ["quote_for"], message: "Please choose from the listed products." });
  }
}

export const fullQuoteSchema = z
  .object({
    ...common,
    existing_customer: choice("Please tell us whether you are an existing customer.", YES_NO),
    business_name: optionalText(quoteLabels.business_name, 200),
    quote_type: choice("Please choose Residential or Commercial.", QUOTE_TYPES),
  })
  .superRefine((value, ctx) => {
    checkQuoteFor(value, ctx);
    if (value.quote_type !== "Commercial" && value.business_name) {
      ctx.addIssue({
        code: "custom",
        path: ["business_name"],
        message: "A business name belongs on a commercial quote.",
      });
    }
  });

export const simpleQuoteSchema = z
  .object({
    ...common,
    // Not a field of the simple payload: the host page's hidden input says which list applies.
    quote_type: z.enum(QUOTE_TYPES).optional(),
  })
  .superRefine(checkQuoteFor);

export type FullQuoteInput = z.infer<typeof fullQuoteSchema>;
export type SimpleQuoteInput = z.infer<typeof simpleQuoteSchema>;
