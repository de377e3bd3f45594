import { promoSignups } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { type FormDefinition } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { promoIdentity } from "./identity";
import { promoLabels, promoSchema } from "./schema";

/** The 2025 discount sign-up (/discount-signup-2025). */
export const promoForm: FormDefinition<typeof promoSchema> = {
  ...promoIdentity,
  noun: "discount sign-up",
  schema: promoSchema,
  successMessage: "Your message has been sent!",
  async handle(tx, value, ctx) {
    const [row] = await tx
      .insert(promoSignups)
      .values({
        firstName: value.first_name,
        lastName: value.last_name,
        email: value.email,
        phone: value.phone,
        product: value.product,
        clientIp: ctx.clientIp,
      })
      .returning({ id: promoSignups.id });
    return {
      submission: { table: getTableName(promoSignups), id: row!.id },
      summary: summaryRows(promoLabels, value),
      name: `${value.first_name} ${value.last_name}`,
      email: value.email,
      confirmationNote: "A team member will contact you with your discount details for your project.",
    };
  },
};
