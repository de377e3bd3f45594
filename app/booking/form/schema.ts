import { z } from "~/lib/zod";
import { INVALID_ZIP_MESSAGE, ZIP_PATTERN } from "~/maps/coverage";
import { isServiceTime, type ServiceTime } from "~/booking/service-price";
import { cardLabels, cardShape, refineCard } from "~/forms/card-schema";
import { requiredText } from "~/forms/schema-helpers";
import { commercialServiceSchema, serviceLabels } from "~/forms/service/schema";
import { AVAILABILITY_MESSAGES, allWindowsBegun } from "../availability";

/**
 * SPEC §3 Service request (residential): the commercial fields plus the card
 * (§5 Residential service extras). `total` and `client_ip` are accepted from
 * the API's clients and never read: the price is the server's
 * (~/booking/service-price.ts), the IP the configured proxy header's. The
 * ZIP is a US one (five digits, or ZIP+4): the booking is refused before any
 * charge outside the service area (./service-area.server.ts, DECISIONS 30).
 * Client-safe: Conform runs it in the browser, the pipeline on the server.
 */
export const residentialLabels = { ...serviceLabels, ...cardLabels } as const;

const MISSING_TIME = "Please choose a service time.";

/**
 * The window is judged with its day (the refinements below): a missing window on a day whose windows have
 * all begun is the date's error ("no times are left"), not "Please choose a service time.", which
 * would ask for what the form cannot offer. Any other value is refused as the commercial form's is.
 */
// Optional to Conform and zod (no "expected nonoptional" of its own), required by the refinements
// below: a parse that succeeds has a window, hence the type.
const serviceTime = z
  .custom<ServiceTime>((value) => missing(value) || (typeof value === "string" && isServiceTime(value)), {
    error: "Please choose one of the listed options.",
  })
  .optional() as unknown as z.ZodType<ServiceTime>;

function missing(value: unknown): boolean {
  return value === undefined || value === "";
}

/**
 * The date refused before any window is looked at: not a date, a past day (the commercial
 * schema's own messages), or today once every window has begun (Detroit's clock, as the
 * commercial schema's "today"). Null when the day may be booked.
 */
export function visitDateRefusal(date: string): string | null {
  const parsed = commercialServiceSchema.shape.serviceDate.safeParse(date);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? null;
  return allWindowsBegun(date) ? AVAILABILITY_MESSAGES.dayBegun : null;
}

/** No window chosen on today once every window has begun: the day is what is refused. */
function noTimesLeft(value: { serviceDate?: unknown; serviceTime?: unknown }): boolean {
  return missing(value.serviceTime) && typeof value.serviceDate === "string" && allWindowsBegun(value.serviceDate);
}

// Checked whatever else is missing (`when`), so an empty form names the window with the rest.
const always = { when: () => true };
export const residentialServiceSchema = commercialServiceSchema
  .extend({
    zip: requiredText(serviceLabels.zip, 12).regex(ZIP_PATTERN, INVALID_ZIP_MESSAGE),
    serviceTime,
    ...cardShape,
    total: z.string().max(20).optional(),
    client_ip: z.string().max(100).optional(),
  })
  .refine((value) => !missing(value.serviceTime) || noTimesLeft(value), {
    ...always,
    path: ["serviceTime"],
    message: MISSING_TIME,
  })
  .refine((value) => !noTimesLeft(value), { ...always, path: ["serviceDate"], message: AVAILABILITY_MESSAGES.dayBegun })
  .superRefine(refineCard);

export type ResidentialServiceInput = z.infer<typeof residentialServiceSchema>;

/**
 * The no-JS "Show price" post's check of the visit (beside the ZIP's, ./service-area.server.ts):
 * a past day is refused as "Book and Pay" refuses it, and today once all its windows have begun
 * says that no times are left. An empty date waits for the booking; a full day is named by the
 * form itself, from the availability the page is given (./VisitFields.tsx).
 */
export function previewVisit(fields: FormData): Record<string, string[]> {
  const date = fields.get("serviceDate");
  if (typeof date !== "string" || !date.trim()) return {};
  const refusal = visitDateRefusal(date.trim());
  return refusal ? { serviceDate: [refusal] } : {};
}
