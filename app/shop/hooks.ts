import { useNavigation } from "react-router";

/**
 * SPEC §2's loading states during client transitions: 'Loading products...'
 * on the way to the shop (a filter, a search, the back button),
 * 'Loading product details...' on the way to a product. Null when idle.
 */
export function useShopLoading(): string | null {
  const { state, location } = useNavigation();
  if (state !== "loading" || !location) return null;
  if (location.pathname === "/shop") return "Loading products...";
  if (location.pathname.startsWith("/product/")) return "Loading product details...";
  return null;
}
