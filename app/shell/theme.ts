import { ComboboxChevron, createTheme, NativeSelect, type MantineColorsTuple } from "@mantine/core";
import { createElement } from "react";

/** Dark green primary, white secondary (SPEC §2). Shade 7 is the brand green #1d5c3a. */
const brand: MantineColorsTuple = [
  "#eef6f1",
  "#d5eadd",
  "#aad4bb",
  "#7dbd97",
  "#58a97a",
  "#3f9867",
  "#2f7a50",
  "#1d5c3a",
  "#154a2e",
  "#0c3520",
];

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: { light: 7, dark: 6 },
  colors: { brand },
  white: "#ffffff",
  black: "#1a1f1c",
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: "800" },
  defaultRadius: "md",
  cursorType: "pointer",
  components: {
    // Mantine's chevron is a bare <svg>: a screen reader would meet an unnamed image in every select.
    NativeSelect: NativeSelect.extend({
      defaultProps: { rightSection: createElement(ComboboxChevron, { "aria-hidden": true }) },
    }),
  },
});
