import { createAltchaChallenge } from "~/forms/captcha/altcha.server";
import { cachePolicy } from "~/http/cache-control";

/** GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the widget. */
export async function loader() {
  return Response.json(await createAltchaChallenge(), { headers: cachePolicy.noStore });
}
