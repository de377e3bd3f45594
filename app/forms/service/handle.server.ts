import { serviceRequests } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { type FormDefinition, type SubmissionContext } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { officeWillConfirm } from "~/maps/coverage.server";
import { commercialServiceIdentity } from "./identity";
import { commercialServiceSchema, serviceLabels, type CommercialServiceInput } from "./schema";

/**
 * Commercial service requests (/request-service?type=commercial and
 * /commercial-schedule-service). The form keeps its values after success
 * (SPEC §4). The residential form (card payment) belongs to the payments
 * issue and writes the same table with kind 'residential'. Any ZIP is
 * taken; one outside the service area is told the office will confirm
 * coverage (DECISIONS 30).
 */
/** A service request's row from the fields both kinds share (the residential booking adds its payment). */
export function serviceRequestRow(
  kind: "commercial" | "residential",
  value: CommercialServiceInput,
  ctx: Pick<SubmissionContext, "page" | "clientIp">,
) {
  return {
    kind,
    name: value.name,
    phone: value.phone,
    email: value.email,
    address1: value.address1,
    address2: value.address2 ?? null,
    city: value.city,
    state: value.state,
    zip: value.zip,
    country: value.country,
    serviceDate: value.serviceDate,
    serviceTime: value.serviceTime,
    description: value.description ?? null,
    contactMethod: value.contactMethod,
    page: ctx.page,
    clientIp: ctx.clientIp,
  };
}

const COMMERCIAL_SUCCESS = "Submitted successfully!";

export const commercialServiceForm: FormDefinition<typeof commercialServiceSchema> = {
  ...commercialServiceIdentity,
  noun: "commercial service request",
  schema: commercialServiceSchema,
  successMessage: COMMERCIAL_SUCCESS,
  keepValuesOnSuccess: true,
  async handle(tx, value, ctx) {
    const [row] = await tx
      .insert(serviceRequests)
      .values(serviceRequestRow("commercial", value, ctx))
      .returning({ id: serviceRequests.id });
    const coverage = await officeWillConfirm(value.zip);
    const note = "We will contact you to confirm the date and time of your service visit.";
    return {
      submission: { table: getTableName(serviceRequests), id: row!.id },
      summary: summaryRows(serviceLabels, value),
      name: value.name,
      email: value.email,
      confirmationNote: coverage ? `${note} ${coverage}` : note,
      message: coverage ? `${COMMERCIAL_SUCCESS} ${coverage}` : undefined,
    };
  },
};
