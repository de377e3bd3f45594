import { employmentForm } from "~/forms/employment/handle.server";
import { apiFormAction } from "~/forms/actions.server";
import type { Route } from "./+types/store.employment";

/** POST /api/store/employment/submit (SPEC §7). */
export const action = (args: Route.ActionArgs) => apiFormAction(employmentForm, args);
