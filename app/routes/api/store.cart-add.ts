import { cartAdd, cartApi } from "~/shop/cart-api.server";
import type { Route } from "./+types/store.cart-add";

/** POST /api/store/cart/add (SPEC §7): `{inventory_id, name, base_price, final_price, selectedOptions}`, priced on the server. */
export const action = ({ request }: Route.ActionArgs) => cartApi(request, cartAdd);
