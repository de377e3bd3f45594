/**
 * The service area's answer for a ZIP code, as the booking form and the
 * server say it (DECISIONS 30). Client-safe: no ZIP data here, only the words
 * and the shape of GET /api/service-area's answer; the lookup is
 * ./coverage.server.ts.
 */

/** A US ZIP code as the booking takes it: five digits, or ZIP+4 (the first five are looked up). */
export const ZIP_PATTERN = /^\d{5}(?:-\d{4})?$/;
export const INVALID_ZIP_MESSAGE = "Enter a valid 5-digit US ZIP code.";
/** Where a visitor outside the area is sent: the quote form asks no payment and takes any ZIP. */
export const OUTSIDE_QUOTE_PATH = "/request-quote?type=residential";
export const OUTSIDE_QUOTE_LINK = "Ask for a quote";
/** Added to a quote's or a commercial request's success when its ZIP is outside every circle (never a refusal). */
export const OFFICE_WILL_CONFIRM =
  "Your ZIP is outside our usual service area; our office will confirm coverage when they call.";

/** The company location nearest a ZIP, among those with a phone of their own. */
export type NearestLocation = { name: string; phone: string; phoneHref: string; miles: number };

/**
 * A ZIP's answer: `invalid` (not five digits or ZIP+4: nothing looked up), `unknown` (no such
 * ZIP code in the data), or `inside` / `outside` every 50-mile circle with the nearest location.
 */
export type Coverage =
  | { zip: string; status: "invalid" | "unknown"; inside: false; nearest: null }
  | { zip: string; status: "inside" | "outside"; inside: boolean; nearest: NearestLocation };

/** The first five digits of a well-formed ZIP or ZIP+4, or null. */
export function zip5(value: string): string | null {
  const trimmed = value.trim();
  return ZIP_PATTERN.test(trimmed) ? trimmed.slice(0, 5) : null;
}

/**
 * The refusal of a booking outside every circle: the field's error and the summary's entry. The
 * location is named and its phone given in a sentence of its own (never "Saginaw ((989) …)"):
 * the pages make the number a tel: link (forms/ui/PhoneText.tsx).
 */
export function outsideAreaMessage(zip: string, nearest: NearestLocation): string {
  return `We don't book online visits to ZIP ${zip}: it is about ${Math.round(nearest.miles)} miles from our nearest service location, ${nearest.name}. Call us at ${nearest.phone}, or ask for a quote and we'll tell you what we can do.`;
}

/**
 * The checkout's refusal of an order whose installation address is outside every circle
 * (DECISIONS 36: the shop installs only inside the service area), in the same shape.
 */
export function outsideInstallationMessage(zip: string, nearest: NearestLocation): string {
  return `We don't install shop orders at ZIP ${zip}: it is about ${Math.round(nearest.miles)} miles from our nearest service location, ${nearest.name}. Call us at ${nearest.phone} and we'll tell you what we can do.`;
}

/** The line under the checkout's installation ZIP once the answer is in: the refusal, or nothing. */
export function installationNote(c: Coverage): { error: boolean; text: string } | null {
  if (c.status === "invalid" || c.status === "unknown") return { error: true, text: INVALID_ZIP_MESSAGE };
  if (c.status === "outside") return { error: true, text: outsideInstallationMessage(c.zip, c.nearest) };
  return null;
}

/** True for outsideAreaMessage's words: the form then shows the link to the quote form under the field. */
export function isOutsideAreaMessage(message: string | null | undefined): boolean {
  return !!message && message.startsWith("We don't book online visits to ZIP ");
}

/** The line under the ZIP field once the answer is in: an error for the two refusals, a plain note inside. */
export function coverageNote(c: Coverage): { error: boolean; text: string } {
  if (c.status === "invalid" || c.status === "unknown") return { error: true, text: INVALID_ZIP_MESSAGE };
  if (c.status === "outside") return { error: true, text: outsideAreaMessage(c.zip, c.nearest) };
  return { error: false, text: `ZIP ${c.zip} is in our service area.` };
}
