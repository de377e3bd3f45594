import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { siteMap } from "../../../app/shell/navigation";

// Every route of the site map, in light and dark mode, with JavaScript on: 0 violations.
const routes = [...new Set(siteMap.flatMap((c) => c.links.map((l) => l.to)))];

for (const scheme of ["light", "dark"] as const) {
  test.describe(`accessibility (${scheme})`, () => {
    test.use({ colorScheme: scheme, reducedMotion: "reduce" });
    for (const route of routes) {
      test(`${route} has no axe violations`, async ({ page }) => {
        await page.goto(route);
        await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
        const results = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
          .analyze();
        const summary = results.violations.map(
          (v) => `${v.id}: ${v.help}\n  ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("\n  ")}`,
        );
        expect(summary, summary.join("\n")).toEqual([]);
      });
    }
  });
}
