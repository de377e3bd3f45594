import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { simpleQuoteForm } from "~/forms/quote/handle.server";
import type { Route } from "./+types/store.quote";

/** POST /api/store/quote/submit (SPEC §7): the simple quote form's handler. */
export const action = (args: Route.ActionArgs) => apiFormAction(simpleQuoteForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
