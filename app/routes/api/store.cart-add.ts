import { apiPostOnly } from "~/forms/actions.server";
import { clientIpOf } from "~/http/client-ip.server";
import { cartApi, cartIntentAnswers } from "~/shop/cart-api.server";
import { CartIntent } from "~/shop/cart-intents";
import type { Route } from "./+types/store.cart-add";

/** POST /api/store/cart/add (SPEC §7): `{inventory_id, name, base_price, final_price, selectedOptions}`, priced on the server. */
export const action = ({ request, context }: Route.ActionArgs) =>
  cartApi(request, cartIntentAnswers[CartIntent.add], { clientIp: clientIpOf(context) });

/** GET or HEAD: 405, in the API's shape. */
export const loader = apiPostOnly;
