import { cartApi, cartGet } from "~/shop/cart-api.server";
import type { Route } from "./+types/store.cart-get";

/** GET /api/store/cart/get (SPEC §7): `{cartItems: [...]}` of the visitor's cookie cart. */
export const loader = ({ request }: Route.LoaderArgs) => cartApi(request, cartGet);
