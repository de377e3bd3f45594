/**
 * The choices the forms offer (SPEC §9 "Options"), shared by the views, the
 * schemas and the e-mails.
 */
export const CONTACT_METHODS = ["Phone Call", "Text", "Email"] as const;
export const START_TIMES = ["2 - 3 Weeks", "1 - 2 Months", "ASAP", "Just Shopping"] as const;
export const YES_NO = ["Yes", "No"] as const;

/** Stored value → label shown ('Not Interested' reads 'Just want budgetary pricing'). */
export const CONSULTATIONS = [
  { value: "In-Home", label: "In-Home" },
  { value: "Virtual", label: "Virtual" },
  { value: "Showroom", label: "Showroom" },
  { value: "Not Interested", label: "Just want budgetary pricing" },
] as const;
export const CONSULTATION_VALUES = ["In-Home", "Virtual", "Showroom", "Not Interested"] as const;

export const QUOTE_TYPES = ["Residential", "Commercial"] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];

export const RESIDENTIAL_QUOTE_FOR = [
  "Garage Doors",
  "Garage Door Opener",
  "Interior & Exterior Doors",
  "Patio Door",
  "Windows",
  "Gutters",
  "Siding",
  "Other",
] as const;

export const COMMERCIAL_QUOTE_FOR = [
  "Sectional Garage Doors",
  "Rolling Steel Doors",
  "Commercial Openers",
  "Loading Docks",
  "Hollow Metal Doors",
  "Bathroom Partitions",
  "Windows",
  "Other",
] as const;

export function quoteForOptions(type: QuoteType): readonly string[] {
  return type === "Commercial" ? COMMERCIAL_QUOTE_FOR : RESIDENTIAL_QUOTE_FOR;
}

/**
 * SPEC §9's service windows, the options of both service forms (the commercial request's and the
 * residential booking's); the booking's price rule prices the evening one apart
 * (app/booking/service-price.ts).
 */
export const SERVICE_TIMES = [
  "Morning (8 AM to 11 AM)",
  "Afternoon (11 AM to 2 PM)",
  "Late Afternoon (2 PM to 4 PM)",
  "Evening (After 4 PM)",
] as const;

export const COUNTRIES = ["United States", "Canada", "Mexico"] as const;
export const DEFAULT_STATE = "MI";
export const DEFAULT_COUNTRY = "United States";

export const PROMO_PRODUCTS = [
  "Garage Doors",
  "Windows",
  "Garage Door Openers",
  "Patio Doors",
  "Gutters",
  "Vinyl Siding & Decorative Stone",
] as const;

export const EDUCATION_LEVELS = [
  "High School Diploma",
  "Some College",
  "Associate Degree",
  "Bachelor's Degree",
  "Master's Degree",
  "Doctorate or higher",
  "Other",
] as const;

/** Upload limits (DECISIONS 11), checked by the browser (ui/fields.tsx) and the server (app/http/multipart.server.ts). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** All of one request's photos together, the sizes' words and the total's message: app/http/upload-rule.ts. */
export { MAX_UPLOAD_TOTAL_BYTES as MAX_PHOTOS_TOTAL_BYTES, megabytes, photosTotalMessage } from "~/http/upload-rule";
export const MAX_QUOTE_PHOTOS = 3;
export const MAX_SERVICE_PHOTOS = 10;
export const TOO_MANY_QUOTE_PHOTOS = "You can only upload up to 3 photos.";
export const TOO_MANY_SERVICE_PHOTOS = "You can only upload up to 10 photos.";
