import { contactForm } from "~/forms/contact/handle.server";
import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import type { Route } from "./+types/store.contact";

/** POST /api/store/contact/submit (SPEC §7): the contact form's handler, JSON in, {success, message} out. */
export const action = (args: Route.ActionArgs) => apiFormAction(contactForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
