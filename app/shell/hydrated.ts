import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False on the server and during hydration, true after it (and on every later
 * client render): controls only JavaScript can drive (a calendar, live
 * filters) appear then, and their no-JavaScript stand-ins go.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
