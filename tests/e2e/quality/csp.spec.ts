import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { dbRows, spamCheckShown } from "../forms/helpers";

/**
 * No page breaks its own Content-Security-Policy once hydrated (issue 31, found by Lighthouse's
 * best-practices audit): the cart's zod schema probed `new Function` (an 'unsafe-eval'
 * violation) until every schema took zod from app/lib/zod.ts. The pages with schemas: the shop's
 * cart and checkout with a line in the cart, a product page, and the forms.
 */
test.afterAll(closeE2eSql);

test("the product, cart, checkout and form pages report no CSP violation", async ({ page, context }) => {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.sourceFile}`));
  });
  const violations = () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  const [product] = await dbRows<{ id: number }>(
    "select id from products where stock >= 20 and custom_fields = '[]'::jsonb order by id limit 1",
  );
  await page.goto(`/product/${product!.id}`);
  expect(await violations()).toEqual([]);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
  await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toBeVisible();
  expect(await violations()).toEqual([]);
  for (const path of ["/checkout", "/request-service?type=residential", "/contact", "/pay-invoice", "/employment"]) {
    await page.goto(path);
    await spamCheckShown(page);
    expect(await violations(), path).toEqual([]);
  }
});
