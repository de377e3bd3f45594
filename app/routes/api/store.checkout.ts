import { apiFormAction, apiPostOnly } from "~/forms/actions.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import type { Route } from "./+types/store.checkout";

/**
 * POST /api/store/checkout (SPEC §7): the cookie cart paid by card, answered
 * `{ success, message }` plus `order_id` (the order's reference, "DO-7K3M-Q9",
 * never its row id) and `total` (dollars) on success. The cart is priced on the
 * server: a posted total is never charged, and one that differs from the
 * cart's refuses the order before any charge. Where to install is optional
 * (installSameAsBilling, installAddress, installCity, installState,
 * installZip): without them, the billing address.
 */
export const action = (args: Route.ActionArgs) => apiFormAction(checkoutForm, args);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
