import { randomUUID } from "node:crypto";
import { employmentApplications } from "@db/schema";
import { getTableName } from "drizzle-orm";
import { encryptText } from "~/lib/crypto.server";
import { type FormDefinition } from "../pipeline";
import { summaryRows } from "~/mail/summary";
import { employmentIdentity } from "./identity";
import { employmentLabels, employmentSchema, normalizeSsn } from "./schema";

/**
 * Employment applications (/employment). The SSN is encrypted before it
 * reaches the database (DECISIONS 17) and appears in no e-mail and no log.
 */
const yes = (v: "yes" | "no") => v === "yes";

/** Where an applicant's SSN is stored, bound into its ciphertext; `secretRef` is the row's secret_ref. */
export function ssnPlace(secretRef: string) {
  return { table: getTableName(employmentApplications), column: "ssn_encrypted", row: secretRef };
}

export const employmentForm: FormDefinition<typeof employmentSchema> = {
  ...employmentIdentity,
  noun: "employment application",
  schema: employmentSchema,
  successMessage: "Submitted successfully!",
  async handle(tx, value, ctx) {
    // The ciphertext is bound to this row (GCM associated data): moved to another row, it does not decrypt.
    const secretRef = randomUUID();
    const [row] = await tx
      .insert(employmentApplications)
      .values({
        firstName: value.firstName,
        lastName: value.lastName,
        middleInitial: value.middleInitial ?? null,
        address: value.address,
        address2: value.address2 ?? null,
        city: value.city,
        state: value.state,
        zip: value.zip,
        phone: value.phone,
        email: value.email,
        dateAvailable: value.dateAvailable,
        ssnEncrypted: encryptText(normalizeSsn(value.ssn)!, ssnPlace(secretRef)),
        secretRef,
        desiredSalary: value.desiredSalary,
        position: value.position,
        usCitizen: yes(value.usCitizen),
        authorized: yes(value.authorized),
        workedBefore: yes(value.workedBefore),
        workedWhen: value.workedWhen ?? null,
        convicted: yes(value.convicted),
        convictionExplanation: value.convictionExplanation ?? null,
        education: value.education,
        qualificationStatement: value.qualificationStatement,
        clientIp: ctx.clientIp,
      })
      .returning({ id: employmentApplications.id });
    // The SSN never leaves the encrypted column: the e-mails only say it was given.
    const summary = summaryRows(employmentLabels, { ...value, ssn: "Provided (stored encrypted, not shown here)" });
    return {
      submission: { table: getTableName(employmentApplications), id: row!.id },
      summary,
      name: `${value.firstName} ${value.lastName}`,
      email: value.email,
      confirmationNote:
        "Our team reviews every application and will contact you if your experience matches an opening.",
    };
  },
};
