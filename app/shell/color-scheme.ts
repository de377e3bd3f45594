import type { MantineColorScheme, MantineColorSchemeManager } from "@mantine/core";

/**
 * The visitor's colour scheme (light, dark, or auto = follow the OS).
 *
 * The stored choice is a cookie (`color-scheme=light|dark|auto`), so the
 * server can render it on `<html data-mantine-color-scheme>` with or without
 * JavaScript (root.tsx; docs/decisions/062-colour-mode-and-carousel.md). The
 * value "auto" on `<html>` means "follow the OS" in CSS alone: every rule
 * written for `[data-mantine-color-scheme="dark"]` or `"light"` has a twin for
 * "auto" under `@media (prefers-color-scheme: …)`, made at build time
 * (auto-color-scheme.postcss.ts). With JavaScript the head script
 * (`colorSchemeHeadScript`) shows the resolved light/dark before the first
 * paint, as Mantine does, and the same choice is mirrored in localStorage,
 * whose storage event carries it to other tabs.
 *
 * The shell keeps it without Mantine's provider, so pages without Mantine
 * components ship none of Mantine's JavaScript; the Mantine providers of the
 * forms and the review carousel (MantineScope) share it through
 * `colorSchemeManager()`. A change made here reaches every provider on the
 * page (a same-page event) and other tabs (the storage event).
 */
export const COLOR_SCHEME_KEY = "color-scheme";
/** The cookie holding the stored choice (not HttpOnly: the toggle writes it; it says nothing private). */
export const COLOR_SCHEME_COOKIE = "color-scheme";
/** A year: the choice outlives a session. */
export const COLOR_SCHEME_MAX_AGE = 60 * 60 * 24 * 365;
const CHANGE_EVENT = "site:color-scheme";

export function isScheme(value: unknown): value is MantineColorScheme {
  return value === "light" || value === "dark" || value === "auto";
}

const COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${COLOR_SCHEME_COOKIE}=(light|dark|auto)(?:;|$)`);

/** The choice a `Cookie` header (or `document.cookie`) holds; undefined when none. */
export function colorSchemeFromCookie(header: string | null | undefined): MantineColorScheme | undefined {
  const match = header ? COOKIE_VALUE.exec(header) : null;
  return match ? (match[1] as MantineColorScheme) : undefined;
}

/**
 * Whether a request's page depends on its cookie: a stored light or dark
 * choice is rendered on `<html>`, so that page is the visitor's own and never
 * enters or comes from the shared page cache (app/http/page-cache.server.ts).
 * "auto" or no choice renders the page every such visitor shares.
 */
export function choosesOwnColorScheme(cookieHeader: string | null | undefined): boolean {
  const scheme = colorSchemeFromCookie(cookieHeader);
  return scheme === "light" || scheme === "dark";
}

/** The cookie's attributes: the whole site, a year, Lax, Secure over https. */
export function colorSchemeCookieAttributes(https: boolean): string {
  return `Path=/; Max-Age=${COLOR_SCHEME_MAX_AGE}; SameSite=Lax${https ? "; Secure" : ""}`;
}

/**
 * The head's inline script (nonce'd: root.tsx), run before the first paint:
 * the stored choice (the cookie, else a choice kept in localStorage before the
 * cookie existed, which it then copies into the cookie) resolved to light or
 * dark, as Mantine's provider shows it. Without JavaScript the server's
 * attribute stands ("auto": CSS follows the OS).
 */
export const colorSchemeHeadScript = `try{var d=document,m=d.cookie.match(/(?:^|;\\s*)${COLOR_SCHEME_COOKIE}=(light|dark|auto)(?:;|$)/),s=m&&m[1];if(!s){s=localStorage.getItem("${COLOR_SCHEME_KEY}");if(s==="light"||s==="dark"||s==="auto")d.cookie="${COLOR_SCHEME_COOKIE}="+s+"; Path=/; Max-Age=${COLOR_SCHEME_MAX_AGE}; SameSite=Lax"+(location.protocol==="https:"?"; Secure":"")}if(s!=="light"&&s!=="dark")s=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";d.documentElement.setAttribute("data-mantine-color-scheme",s)}catch(e){}`;

function stored(): MantineColorScheme | undefined {
  const fromCookie = colorSchemeFromCookie(document.cookie);
  if (fromCookie) return fromCookie;
  try {
    const value = window.localStorage.getItem(COLOR_SCHEME_KEY);
    return isScheme(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeCookie(scheme: MantineColorScheme): void {
  document.cookie = `${COLOR_SCHEME_COOKIE}=${scheme}; ${colorSchemeCookieAttributes(location.protocol === "https:")}`;
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

/** Stores (cookie and localStorage) and shows a choice, then tells the rest of the page (only when it changed, so listeners that store what they hear do not echo). */
export function setColorScheme(scheme: MantineColorScheme): void {
  applyColorScheme(scheme);
  const before = stored();
  writeCookie(scheme);
  try {
    window.localStorage.setItem(COLOR_SCHEME_KEY, scheme); // the same value again fires no storage event
  } catch {
    // Storage refused (private mode, quota): the cookie still keeps it, but other tabs are not told.
  }
  if (before === scheme) return;
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
      document.cookie = `${COLOR_SCHEME_COOKIE}=; Path=/; Max-Age=0`;
      try {
        window.localStorage.removeItem(COLOR_SCHEME_KEY);
      } catch {
        // nothing stored
      }
    },
  };
}
