import { coverageNote } from "~/maps/coverage";
import { coverageOf } from "~/maps/coverage.server";

/**
 * The residential booking's service-area check (DECISIONS 30): its ZIP's
 * error, or nothing inside the area. `reserve` refuses with it before any hold
 * or charge; the no-JS "Show price" answer shows it beside the field.
 */
export async function serviceAreaErrors(zip: string): Promise<Record<string, string[]>> {
  const coverage = await coverageOf(zip);
  if (coverage.status === "inside") return {};
  return { zip: [coverageNote(coverage).text] };
}

/** The "Show price" post's check: a ZIP typed so far is answered; an empty one waits for the booking. */
export async function previewServiceArea(fields: FormData): Promise<Record<string, string[]>> {
  const zip = fields.get("zip");
  return typeof zip === "string" && zip.trim() ? serviceAreaErrors(zip) : {};
}
