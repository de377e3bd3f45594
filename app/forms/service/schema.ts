import { z } from "~/lib/zod";
import { CONTACT_METHODS, COUNTRIES, SERVICE_TIMES } from "../options";
import { choice, dateField, emailField, optionalText, phoneField, requiredText } from "../schema-helpers";
import { todayInDetroit } from "~/lib/company-time";

/** SPEC §3 Service request (commercial), §5 rules. */
export const serviceLabels = {
  name: "Name",
  phone: "Phone",
  email: "Email",
  address1: "Address Line 1",
  address2: "Address Line 2",
  city: "City",
  state: "State",
  zip: "ZIP Code",
  country: "Country",
  serviceDate: "Service Date",
  serviceTime: "Service Time",
  description: "Describe the problem",
  contactMethod: "Preferred contact method",
  photo: "Photos",
} as const;

export const commercialServiceSchema = z.object({
  name: requiredText(serviceLabels.name, 150),
  phone: phoneField(serviceLabels.phone),
  email: emailField(serviceLabels.email),
  address1: requiredText(serviceLabels.address1, 200),
  address2: optionalText(serviceLabels.address2, 200),
  city: requiredText(serviceLabels.city, 100),
  state: requiredText(serviceLabels.state, 50),
  zip: requiredText(serviceLabels.zip, 12),
  country: choice("Please choose a country.", COUNTRIES),
  serviceDate: dateField(serviceLabels.serviceDate).refine((d) => d >= todayInDetroit(), {
    message: "Please choose today or a later date.",
  }),
  serviceTime: choice("Please choose a service time.", SERVICE_TIMES),
  description: optionalText("Description", 5000),
  contactMethod: choice("Please choose how we should contact you.", CONTACT_METHODS),
});

export type CommercialServiceInput = z.infer<typeof commercialServiceSchema>;
