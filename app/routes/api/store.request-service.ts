import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import type { Route } from "./+types/store.request-service";

/** POST /api/store/request-service/commercial (SPEC §7): multipart, one field each, repeated 'photo' files. */
export const action = (args: Route.ActionArgs) => apiFormAction(commercialServiceForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
