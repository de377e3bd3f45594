import type { MantineColorScheme } from "@mantine/core";
import { useEffect, useState } from "react";
import { applyColorScheme, onColorSchemeChange, readColorScheme, setColorScheme } from "./color-scheme";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons";

const order: MantineColorScheme[] = ["light", "dark", "auto"];
const names: Record<MantineColorScheme, string> = { light: "light", dark: "dark", auto: "system" };

/**
 * Cycles light → dark → system. The choice is stored in localStorage
 * (shell/color-scheme.ts) and followed across tabs; in system mode the page
 * follows the OS as it changes.
 */
export function ColorSchemeToggle() {
  // The server cannot know the stored choice: render neutral (and disabled) until mounted.
  const [scheme, setScheme] = useState<MantineColorScheme | null>(null);
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
  const current = scheme ?? "auto";
  const next = order[(order.indexOf(current) + 1) % order.length]!;
  const Icon = current === "light" ? SunIcon : current === "dark" ? MoonIcon : MonitorIcon;
  return (
    <button
      type="button"
      className="icon-btn"
      data-testid="color-scheme-toggle"
      data-scheme={current}
      aria-label={`Colour scheme: ${names[current]}. Switch to ${names[next]}`}
      title={`Colour scheme: ${names[current]}`}
      onClick={() => {
        setColorScheme(next);
        setScheme(next);
      }}
      disabled={scheme === null}
    >
      <Icon size={22} />
    </button>
  );
}
