import { apiPostOnly } from "~/forms/actions.server";
import { cartApi, cartIntentAnswers } from "~/shop/cart-api.server";
import { CartIntent } from "~/shop/cart-intents";
import type { Route } from "./+types/store.cart-delete";

/** POST /api/store/cart/delete (SPEC §7): `cart_id`, one line of the visitor's own cart. */
export const action = ({ request }: Route.ActionArgs) => cartApi(request, cartIntentAnswers[CartIntent.delete]);

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
