import { FormFailure } from "~/forms/pipeline";
import { INVALID_ZIP_MESSAGE, outsideInstallationMessage } from "~/maps/coverage";
import { coverageOf } from "~/maps/coverage.server";
import { installationOf, type InstallationValue } from "./installation";

type Billing = { address: string; city: string; state: string; zip: string };

/**
 * The checkout's service-area check (DECISIONS 36 and 30), with the booking's rule and data
 * (~/maps/coverage.server.ts): the installation address's ZIP (the billing one when "Same as
 * billing address" is checked) must lie inside a circle. The refusal sits beside the ZIP field
 * that was read and names the nearest location's phone; nothing inside the area.
 */
export async function installationAreaFailure(value: InstallationValue & Billing): Promise<FormFailure | null> {
  const place = installationOf(value);
  const coverage = await coverageOf(place.zip);
  if (coverage.status === "inside") return null;
  const message =
    coverage.status === "outside" ? outsideInstallationMessage(coverage.zip, coverage.nearest) : INVALID_ZIP_MESSAGE;
  return new FormFailure(message, { [place.sameAsBilling ? "zip" : "installZip"]: [message] }, 400, {
    cardless: true,
  });
}
