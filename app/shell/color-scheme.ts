import type { MantineColorScheme, MantineColorSchemeManager } from "@mantine/core";

/**
 * The visitor's colour scheme (light, dark, or auto = follow the OS), kept in
 * localStorage under the key that <ColorSchemeScript> reads before first paint,
 * and shown as `<html data-mantine-color-scheme>` (which Mantine's CSS and ours
 * style by).
 *
 * The shell keeps it without Mantine's provider, so pages without Mantine
 * components ship none of Mantine's JavaScript; the Mantine providers of the
 * forms and the review carousel (MantineScope) share it through
 * `colorSchemeManager()`. A change made here reaches every provider on the
 * page (a same-page event) and other tabs (the storage event).
 */
export const COLOR_SCHEME_KEY = "color-scheme";
const CHANGE_EVENT = "site:color-scheme";

function isScheme(value: unknown): value is MantineColorScheme {
  return value === "light" || value === "dark" || value === "auto";
}

function stored(): MantineColorScheme | undefined {
  try {
    const value = window.localStorage.getItem(COLOR_SCHEME_KEY);
    return isScheme(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The stored choice; "auto" when there is none (and on the server). */
export function readColorScheme(): MantineColorScheme {
  return typeof window === "undefined" ? "auto" : (stored() ?? "auto");
}

/** Shows a scheme on <html>, as Mantine's provider does: "auto" resolves to the OS preference. */
export function applyColorScheme(scheme: MantineColorScheme): void {
  const dark = window.matchMedia?.("(prefers-color-scheme: dark)").matches;
  const computed = scheme === "auto" ? (dark ? "dark" : "light") : scheme;
  document.documentElement.setAttribute("data-mantine-color-scheme", computed);
}

/** Stores and shows a choice, then tells the rest of the page (only when it changed, so listeners that store what they hear do not echo). */
export function setColorScheme(scheme: MantineColorScheme): void {
  applyColorScheme(scheme);
  if (stored() === scheme) return;
  try {
    window.localStorage.setItem(COLOR_SCHEME_KEY, scheme);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page.
  }
  window.dispatchEvent(new CustomEvent<MantineColorScheme>(CHANGE_EVENT, { detail: scheme }));
}

/** Calls back with every new choice made in this page or in another tab; returns the unsubscribe. */
export function onColorSchemeChange(callback: (scheme: MantineColorScheme) => void): () => void {
  const here = (event: Event) => {
    const scheme = (event as CustomEvent<unknown>).detail;
    if (isScheme(scheme)) callback(scheme);
  };
  const elsewhere = (event: StorageEvent) => {
    if (event.key === COLOR_SCHEME_KEY && event.storageArea === window.localStorage) {
      callback(isScheme(event.newValue) ? event.newValue : "auto");
    }
  };
  window.addEventListener(CHANGE_EVENT, here);
  window.addEventListener("storage", elsewhere);
  return () => {
    window.removeEventListener(CHANGE_EVENT, here);
    window.removeEventListener("storage", elsewhere);
  };
}

/** A Mantine colour-scheme manager over the same store: one per MantineProvider (it holds its subscription). */
export function colorSchemeManager(): MantineColorSchemeManager {
  let unsubscribe: (() => void) | undefined;
  return {
    get: (defaultValue) => (typeof window === "undefined" ? defaultValue : (stored() ?? defaultValue)),
    set: setColorScheme,
    subscribe(onUpdate) {
      unsubscribe?.();
      unsubscribe = onColorSchemeChange(onUpdate);
    },
    unsubscribe() {
      unsubscribe?.();
      unsubscribe = undefined;
    },
    clear() {
      try {
        window.localStorage.removeItem(COLOR_SCHEME_KEY);
      } catch {
        // nothing stored
      }
    },
  };
}
