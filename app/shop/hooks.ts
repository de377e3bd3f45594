import { useSyncExternalStore } from "react";
import { useNavigation } from "react-router";

const noSubscription = () => () => {};

/** False on the server and during hydration, true after it: controls only JavaScript can use appear then. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

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
