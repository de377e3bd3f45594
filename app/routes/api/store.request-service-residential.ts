import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { residentialServiceForm } from "~/booking/form/handle.server";
import type { Route } from "./+types/store.request-service-residential";

/**
 * POST /api/store/request-service/residential (SPEC §7): multipart, the
 * commercial fields plus the card; the posted `total` and `client_ip` are not
 * believed (the server's price, the configured proxy header's IP).
 */
export const action = (args: Route.ActionArgs) => apiFormAction(residentialServiceForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
