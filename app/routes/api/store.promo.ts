import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { promoForm } from "~/forms/promo/handle.server";
import type { Route } from "./+types/store.promo";

/** POST /api/store/promo/submit (SPEC §7). */
export const action = (args: Route.ActionArgs) => apiFormAction(promoForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
