import { MantineProvider } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { colorSchemeManager } from "./color-scheme";
import { theme } from "./theme";

/**
 * Mantine's provider around the parts of a page that use Mantine components
 * (the lead forms, the review carousel), instead of around the whole site: the
 * shell is plain markup, so a page without Mantine components loads none of
 * Mantine's JavaScript, and the provider's code travels in those parts' lazy
 * chunks. It renders no element of its own. The theme's CSS variables and
 * global classes come from the static stylesheet (shell/mantine.css); the
 * colour scheme is the site's (shell/color-scheme.ts).
 */
export function MantineScope({ children }: { children: ReactNode }) {
  const [manager] = useState(colorSchemeManager);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={manager}
      withCssVariables={false}
      withGlobalClasses={false}
    >
      {children}
    </MantineProvider>
  );
}
