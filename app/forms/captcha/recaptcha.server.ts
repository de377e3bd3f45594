import { log } from "~/lib/log.server";

/**
 * Google reCAPTCHA v2, checked on the server with siteverify (the browser's
 * word is never taken). Google itself refuses a token used twice.
 */
export const SITEVERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";

export async function verifyRecaptchaToken(secretKey: string, token: string, ip: string | null): Promise<boolean> {
  const body = new URLSearchParams({ secret: secretKey, response: token });
  if (ip) body.set("remoteip", ip);
  try {
    const response = await fetch(SITEVERIFY_URL, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(8_000),
    });
    if (!response.ok) {
      log.warn({ status: response.status }, "reCAPTCHA siteverify answered with an error status");
      return false;
    }
    const result = (await response.json()) as { success?: boolean; "error-codes"?: string[] };
    if (!result.success) log.info({ codes: result["error-codes"] }, "reCAPTCHA token refused");
    return result.success === true;
  } catch (error) {
    log.warn({ err: error }, "reCAPTCHA siteverify unreachable");
    return false;
  }
}
