import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { closeE2eSql, e2eQuery } from "../support/db";
import { expect, test } from "../support/test";

/**
 * The site-map walk (tests/e2e/quality/a11y.spec.ts) reaches /shop; the
 * product pages and the shop's other states are reached here, with the same
 * rules: a product with options, one out of stock, an unknown one, an empty
 * search, at desktop width and at 390 px, light and dark; and the cart with
 * a line of several units and a line out of stock (its checkout closed).
 */
test.afterAll(closeE2eSql);

/** A cart of two units of a door in stock and a line of a product sold out (put in by hand, as if bought out since). */
async function cartWithQuantitiesAndASoldOutLine(page: Page) {
  const [door] = await e2eQuery<{ id: number }>("select id from products where stock >= 2 order by id limit 1");
  for (let i = 0; i < 2; i++)
    expect((await page.request.post("/api/store/cart/add", { data: { inventory_id: door!.id } })).status()).toBe(200);
  const cart = (await (await page.request.get("/api/store/cart/get")).json()) as { cartItems: { id: string }[] };
  await e2eQuery(
    "insert into cart_items (cart_id, product_id) select cart_id, (select id from products where stock = 0 order by id limit 1) from cart_items where id = $1",
    [cart.cartItems[0]!.id],
  );
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations.map(
    (v) =>
      `${v.id}: ${v.help}\n  ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join("\n  ")}`,
  );
}
const pages = ["/product/1", "/product/5", "/product/999999", "/shop?q=skylight", "/shop?category=7&sort=price-desc"];

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 390]) {
    test.describe(`shop accessibility (${scheme}, ${width} px)`, () => {
      test.use({ colorScheme: scheme, reducedMotion: "reduce", viewport: { width, height: 900 } });
      for (const path of pages) {
        test(`${path} has no axe violations`, async ({ page }) => {
          await page.goto(path);
          await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
          const summary = await axeViolations(page);
          expect(summary, summary.join("\n")).toEqual([]);
        });
      }

      test("/my-cart with quantities and a line out of stock has no axe violations", async ({ page }) => {
        await cartWithQuantitiesAndASoldOutLine(page);
        await page.goto("/my-cart");
        await expect(page.getByRole("button", { name: "Proceed to Checkout" })).toBeDisabled();
        await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", scheme);
        const summary = await axeViolations(page);
        expect(summary, summary.join("\n")).toEqual([]);
      });
    });
  }
}
