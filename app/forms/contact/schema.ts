import { z } from "~/lib/zod";
import { emailField, phoneField, requiredText } from "../schema-helpers";

/** SPEC §3 Contact submission; §5: all five fields required. */
export const contactLabels = {
  first_name: "First Name",
  last_name: "Last Name",
  email: "Email",
  phone: "Phone",
  details: "How can we help you?",
} as const;

export const contactSchema = z.object({
  first_name: requiredText(contactLabels.first_name, 100),
  last_name: requiredText(contactLabels.last_name, 100),
  email: emailField(contactLabels.email),
  phone: phoneField(contactLabels.phone),
  details: z
    .string({ error: "Please tell us how we can help." })
    .trim()
    .min(1, "Please tell us how we can help.")
    .max(5000, "Please keep your message under 5,000 characters."),
});
