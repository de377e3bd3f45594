import { apiFormAction } from "~/forms/actions.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import type { Route } from "./+types/store.request-service";

/** POST /api/store/request-service/commercial (SPEC §7): multipart, one field each, repeated 'photo' files. */
export const action = (args: Route.ActionArgs) => apiFormAction(commercialServiceForm, args);
