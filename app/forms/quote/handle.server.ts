import { quoteRequests } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { company } from "~/lib/company";
import { CONSULTATIONS } from "../options";
import { type FormDefinition, type Handled, type SubmissionContext } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { officeWillConfirm } from "~/maps/coverage.server";
import type { Tx } from "@db/client.server";
import { fullQuoteIdentity, simpleQuoteIdentity } from "./identity";
import { fullQuoteSchema, quoteLabels, simpleQuoteSchema, type FullQuoteInput, type SimpleQuoteInput } from "./schema";

/**
 * Quote requests: the full form of /request-quote?type=… (with photos) and
 * the simple form embedded on product pages. One table, source recorded
 * (DECISIONS 9). Any ZIP is taken; one outside the service area is told the
 * office will confirm coverage (DECISIONS 30).
 */
export const QUOTE_SUCCESS = `Submitted successfully! A representative will reach out within ${company.responseTime}.`;

function consultationLabel(value: string) {
  return CONSULTATIONS.find((c) => c.value === value)?.label ?? value;
}

async function storeQuote(
  tx: Tx,
  value: FullQuoteInput | SimpleQuoteInput,
  ctx: SubmissionContext,
  source: "full" | "simple",
): Promise<Handled> {
  const full = source === "full" ? (value as FullQuoteInput) : null;
  const [row] = await tx
    .insert(quoteRequests)
    .values({
      source,
      quoteType: value.quote_type ?? null,
      firstName: value.first_name,
      lastName: value.last_name,
      phone: value.phone,
      email: value.email,
      zip: value.zip,
      description: value.description ?? null,
      contactMethod: value.contact_method,
      quoteFor: value.quote_for,
      financing: value.financing,
      consultation: value.consultation,
      startTime: value.start_time,
      existingCustomer: full?.existing_customer ?? null,
      businessName: full?.business_name ?? null,
      page: ctx.page,
      clientIp: ctx.clientIp,
    })
    .returning({ id: quoteRequests.id });
  const summary = summaryRows(quoteLabels, { ...value, consultation: consultationLabel(value.consultation) });
  summary.push({ label: "Form", value: source === "full" ? "Full quote form" : "Quote form on a product page" });
  const coverage = await officeWillConfirm(value.zip);
  const note = `A representative will reach out within ${company.responseTime}.`;
  return {
    submission: { table: getTableName(quoteRequests), id: row!.id },
    summary,
    name: `${value.first_name} ${value.last_name}`,
    email: value.email,
    confirmationNote: coverage ? `${note} ${coverage}` : note,
    message: coverage ? `${QUOTE_SUCCESS} ${coverage}` : undefined,
  };
}

export const fullQuoteForm: FormDefinition<typeof fullQuoteSchema> = {
  ...fullQuoteIdentity,
  noun: "quote request",
  schema: fullQuoteSchema,
  successMessage: QUOTE_SUCCESS,
  handle: (tx, value, ctx) => storeQuote(tx, value, ctx, "full"),
};

export const simpleQuoteForm: FormDefinition<typeof simpleQuoteSchema> = {
  ...simpleQuoteIdentity,
  noun: "quote request",
  schema: simpleQuoteSchema,
  successMessage: QUOTE_SUCCESS,
  handle: (tx, value, ctx) => storeQuote(tx, value, ctx, "simple"),
};
