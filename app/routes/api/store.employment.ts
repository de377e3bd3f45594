import { employmentForm } from "~/forms/employment/handle.server";
import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import type { Route } from "./+types/store.employment";

/** POST /api/store/employment/submit (SPEC §7). */
export const action = (args: Route.ActionArgs) => apiFormAction(employmentForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
