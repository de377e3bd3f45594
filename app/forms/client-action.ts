import { isFormActionData, THROWN_ERROR, type FormActionData } from "./result";

/**
 * A form page's `clientAction`: when the request itself fails (network down,
 * server unreachable), show SPEC §8's 'An error occurred. Please try again.'
 * in place of an error page. Redirects pass through. Without JavaScript it
 * never runs; the server action answers directly.
 */
export async function leadFormClientAction({ serverAction }: { serverAction: () => Promise<unknown> }) {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    const failed: FormActionData = { form: "", status: "error", message: THROWN_ERROR, lastResult: null };
    return failed;
  }
}

/**
 * A form page's `shouldRevalidate`: nothing a page loads changes when a lead
 * form is sent, so skip reloading the page's data after it (one request less,
 * and a network failure stays a message instead of an error page).
 */
export function leadFormShouldRevalidate({
  formMethod,
  actionResult,
  defaultShouldRevalidate,
}: {
  formMethod?: string;
  actionResult?: unknown;
  defaultShouldRevalidate: boolean;
}): boolean {
  if (formMethod?.toUpperCase() === "POST" && isFormActionData(actionResult)) return false;
  return defaultShouldRevalidate;
}
