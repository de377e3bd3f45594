import { cartApi, cartCount } from "~/shop/cart-api.server";
import type { Route } from "./+types/store.cart-count";

/** GET /api/store/cart/count: `{count}` of the visitor's cookie cart, for the header's cart link (app/shop/cart-count.ts). */
export const loader = ({ request }: Route.LoaderArgs) => cartApi(request, cartCount);
