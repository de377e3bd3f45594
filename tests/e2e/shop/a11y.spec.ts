import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "../support/test";

/**
 * The site-map walk (tests/e2e/quality/a11y.spec.ts) reaches /shop; the
 * product pages and the shop's other states are reached here, with the same
 * rules: a product with options, one out of stock, an unknown one, an empty
 * search, at desktop width and at 390 px, light and dark.
 */
const pages = ["/product/1", "/product/5", "/product/999999", "/shop?q=skylight", "/shop?category=7&sort=price-desc"];

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 390]) {
    test.describe(`shop accessibility (${scheme}, ${width} px)`, () => {
      test.use({ colorScheme: scheme, reducedMotion: "reduce", viewport: { width, height: 900 } });
      for (const path of pages) {
        test(`${path} has no axe violations`, async ({ page }) => {
          await page.goto(path);
          await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
          const results = await new AxeBuilder({ page })
            .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
            .analyze();
          const summary = results.violations.map(
            (v) =>
              `${v.id}: ${v.help}\n  ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(" "))
                .join("\n  ")}`,
          );
          expect(summary, summary.join("\n")).toEqual([]);
        });
      }
    });
  }
}
