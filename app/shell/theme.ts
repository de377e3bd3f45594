import { createTheme, type MantineColorsTuple } from "@mantine/core";

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
});
