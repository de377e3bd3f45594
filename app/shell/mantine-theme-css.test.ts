import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mantineThemeCss, OUTPUT } from "../../scripts/mantine-theme-css";

describe("generated Mantine theme stylesheet", () => {
  it("matches what MantineProvider renders for the site's theme (regenerate with npx tsx scripts/mantine-theme-css.tsx)", () => {
    const css = mantineThemeCss();
    expect(css).toContain("--mantine-color-brand-7: #1d5c3a");
    expect(css).toContain('[data-mantine-color-scheme="dark"]');
    expect(readFileSync(OUTPUT, "utf8")).toBe(css);
  });
});
