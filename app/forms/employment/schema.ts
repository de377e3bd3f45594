import { z } from "~/lib/zod";
import { EDUCATION_LEVELS } from "../options";
import { choice, dateField, emailField, optionalText, phoneField, requiredText, yesNoField } from "../schema-helpers";

/** SPEC §3 Employment application; §5 required/optional split. */
export const employmentLabels = {
  firstName: "First Name",
  lastName: "Last Name",
  middleInitial: "M.I.",
  address: "Street Address",
  address2: "Apt/Unit",
  city: "City",
  state: "State",
  zip: "ZIP Code",
  phone: "Phone",
  email: "Email",
  dateAvailable: "Date Available",
  ssn: "Social Security #",
  desiredSalary: "Desired Salary",
  position: "Position Applied For",
  usCitizen: "Are you a citizen of the United States?",
  authorized: "Are you authorized to work in the United States?",
  workedBefore: "Have you ever worked for this company?",
  workedWhen: "If so, when?",
  convicted: "Have you ever been convicted of a felony?",
  convictionExplanation: "If yes, please explain",
  education: "Highest Level of Education",
  qualificationStatement: "Why are you a good fit for this position?",
} as const;

/** Nine digits, written with or without dashes or spaces. */
export function normalizeSsn(value: string): string | null {
  const digits = value.replace(/[\s-]/g, "");
  return /^\d{9}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` : null;
}

export const employmentSchema = z.object({
  firstName: requiredText(employmentLabels.firstName, 100),
  lastName: requiredText(employmentLabels.lastName, 100),
  middleInitial: optionalText(employmentLabels.middleInitial, 3),
  address: requiredText(employmentLabels.address, 200),
  address2: optionalText(employmentLabels.address2, 100),
  city: requiredText(employmentLabels.city, 100),
  state: requiredText(employmentLabels.state, 50),
  zip: requiredText(employmentLabels.zip, 12),
  phone: phoneField(employmentLabels.phone),
  email: emailField(employmentLabels.email),
  dateAvailable: dateField(employmentLabels.dateAvailable),
  ssn: requiredText(employmentLabels.ssn, 20).refine((v) => normalizeSsn(v) !== null, {
    message: "Please enter the 9 digits of your Social Security number.",
  }),
  desiredSalary: requiredText(employmentLabels.desiredSalary, 100),
  position: requiredText(employmentLabels.position, 150),
  usCitizen: yesNoField(employmentLabels.usCitizen),
  authorized: yesNoField(employmentLabels.authorized),
  workedBefore: yesNoField(employmentLabels.workedBefore),
  workedWhen: optionalText(employmentLabels.workedWhen, 200),
  convicted: yesNoField(employmentLabels.convicted),
  convictionExplanation: optionalText("Explanation", 2000),
  education: choice("Please choose your highest level of education.", EDUCATION_LEVELS),
  qualificationStatement: z
    .string({ error: "Please tell us why you are a good fit." })
    .trim()
    .min(1, "Please tell us why you are a good fit.")
    .max(5000, "Please keep your statement under 5,000 characters."),
});
