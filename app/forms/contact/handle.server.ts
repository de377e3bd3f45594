import { contactSubmissions } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { type FormDefinition } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { contactIdentity } from "./identity";
import { contactLabels, contactSchema } from "./schema";

/** Contact Us (/contact and wherever the contact form is embedded). */
export const contactForm: FormDefinition<typeof contactSchema> = {
  ...contactIdentity,
  noun: "contact message",
  schema: contactSchema,
  successMessage: "Your message has been sent!",
  async handle(tx, value, ctx) {
    const [row] = await tx
      .insert(contactSubmissions)
      .values({
        firstName: value.first_name,
        lastName: value.last_name,
        email: value.email,
        phone: value.phone,
        details: value.details,
        page: ctx.page,
        clientIp: ctx.clientIp,
      })
      .returning({ id: contactSubmissions.id });
    return {
      submission: { table: getTableName(contactSubmissions), id: row!.id },
      summary: summaryRows(contactLabels, value),
      name: `${value.first_name} ${value.last_name}`,
      email: value.email,
      confirmationNote: "We will get back to you soon.",
    };
  },
};
