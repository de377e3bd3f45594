import { startTransition, useEffect, useState } from "react";

/** Set once the first page has hydrated; later client renders start hydrated. */
let hydratedOnce = false;

/**
 * False on the server and during hydration, true after it (and on every later
 * client render): controls only JavaScript can drive (a calendar, live
 * filters) appear then, and their no-JavaScript stand-ins go.
 *
 * The switch after hydration is a transition, so React renders the calendar in
 * short slices instead of one long task that would hold the main thread while
 * the visitor may already be typing (docs/decisions/044-scripts-after-first-paint.md).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}

/**
 * Marks the document once the page has hydrated (`<html data-hydrated>`): the
 * moment the shell's controls (menus, colour toggle, forms' live checks) answer.
 * The end-to-end tests wait for it after each navigation (tests/e2e/support/test.ts),
 * since the scripts start only after the first paint (docs/decisions/044).
 */
export function useHydrationMark(): void {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
}
