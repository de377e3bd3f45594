import { apiFormAction } from "~/forms/actions.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import type { Route } from "./+types/store.checkout";

/**
 * POST /api/store/checkout (SPEC §7): the cookie cart paid by card, answered
 * `{ success, message }` plus `order_id` and `total` (dollars) on success. A
 * posted total is never read: the cart is priced on the server.
 */
export const action = (args: Route.ActionArgs) => apiFormAction(checkoutForm, args);
