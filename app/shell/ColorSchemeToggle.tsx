import { useMantineColorScheme, type MantineColorScheme } from "@mantine/core";
import { useEffect, useState } from "react";
import { MonitorIcon, MoonIcon, SunIcon } from "./icons";

const order: MantineColorScheme[] = ["light", "dark", "auto"];
const names: Record<MantineColorScheme, string> = { light: "light", dark: "dark", auto: "system" };

/**
 * Cycles light → dark → system. Mantine stores the choice in localStorage and
 * follows other tabs through the storage event; in system mode it follows the OS.
 */
export function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  // The server cannot know the stored choice: render neutral until mounted.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const current = mounted ? colorScheme : "auto";
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
      onClick={() => setColorScheme(next)}
      disabled={!mounted}
    >
      <Icon size={22} />
    </button>
  );
}
