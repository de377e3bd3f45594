import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { invoiceForm } from "~/forms/invoice/handle.server";
import type { Route } from "./+types/store.pay-invoice";

/** POST /api/store/pay-invoice/submit (SPEC §7): a posted total or client_ip is not believed. */
export const action = (args: Route.ActionArgs) => apiFormAction(invoiceForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
