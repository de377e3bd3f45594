import type { MantineColorScheme } from "@mantine/core";
import { useEffect, useState } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { applyColorScheme, isScheme, onColorSchemeChange, readColorScheme, setColorScheme } from "./color-scheme";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons";

const order: MantineColorScheme[] = ["light", "dark", "auto"];
const names: Record<MantineColorScheme, string> = { light: "light", dark: "dark", auto: "system" };

/**
 * Cycles light → dark → system. It is a form posting the next choice to
 * /color-scheme (routes/color-scheme.ts), so it works without JavaScript: the
 * answer stores the choice in the cookie the server renders and comes back to
 * this page. With JavaScript the click changes the scheme in place
 * (shell/color-scheme.ts: the cookie, and localStorage for other tabs), and in
 * system mode the page follows the OS as it changes.
 */
export function ColorSchemeToggle() {
  // The server renders the stored choice (the cookie, read by root's loader).
  const rendered = useRouteLoaderData<{ colorScheme?: unknown }>("root")?.colorScheme;
  const [scheme, setScheme] = useState<MantineColorScheme>(isScheme(rendered) ? rendered : "auto");
  const location = useLocation();
  useEffect(() => {
    // Show the stored choice now: the OS may have changed since the head script ran.
    const stored = readColorScheme();
    applyColorScheme(stored);
    setScheme(stored);
    const off = onColorSchemeChange((next) => {
      applyColorScheme(next);
      setScheme(next);
    });
    const media = window.matchMedia?.("(prefers-color-scheme: dark)");
    const followOs = () => {
      if (readColorScheme() === "auto") applyColorScheme("auto");
    };
    media?.addEventListener("change", followOs);
    return () => {
      off();
      media?.removeEventListener("change", followOs);
    };
  }, []);
  const next = order[(order.indexOf(scheme) + 1) % order.length]!;
  const Icon = scheme === "light" ? SunIcon : scheme === "dark" ? MoonIcon : MonitorIcon;
  return (
    <form method="post" action="/color-scheme" className="color-scheme-form">
      {/* The path only: a query the page does not read (utm_*, gclid) would keep it out of the page
          cache; the route goes back to the Referer when the browser sends one. */}
      <input type="hidden" name="back" value={location.pathname} />
      <button
        type="submit"
        name="scheme"
        value={next}
        className="icon-btn"
        data-testid="color-scheme-toggle"
        data-scheme={scheme}
        aria-label={`Colour scheme: ${names[scheme]}. Switch to ${names[next]}`}
        title={`Colour scheme: ${names[scheme]}`}
        onClick={(event) => {
          event.preventDefault();
          setColorScheme(next);
          setScheme(next);
        }}
      >
        <Icon size={22} />
      </button>
    </form>
  );
}
