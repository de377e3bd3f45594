import { type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { onlyLeft } from "../../../app/shop/cart-schema";
import { closeE2eSql, e2eQuery } from "../support/db";
import { modes } from "../forms/helpers";

/**
 * The shop a homeowner meets (issue 38 item 5), with JavaScript on and off: the header's cart link
 * on every page and the number of units in it (with JavaScript at once, on a page the shared cache
 * answered too; without, on every page rendered for the visitor), the product page's Quantity (the
 * units added at once, the choice held to the stock), "Search all products for …" when a search in
 * a category finds nothing, two cards a row on a 390 px phone with the chosen category's chip in
 * view, and no stock count on a service. Each test is a new visitor (its own context, so its own
 * cart cookie).
 */
test.afterAll(closeE2eSql);

type Product = { id: number; name: string; stock: number; category_id: number };

const productNamed = async (name: string) =>
  (await e2eQuery<Product>("select id, name, stock, category_id from products where name = $1", [name]))[0]!;

/** The header's cart link, and the count its badge shows (empty: none). */
const headerCart = (page: Page) => page.getByTestId("header-cart");
const headerCount = (page: Page) => page.getByTestId("header-cart-count");

async function addFromProductPage(page: Page, product: Product, quantity: number, javaScriptEnabled: boolean) {
  await page.goto(`/product/${product.id}`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await page.getByLabel("Quantity", { exact: true }).selectOption(String(quantity));
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
}

for (const mode of modes) {
  test.describe(`the header's cart, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("every page has a cart link in the header; the count of units shows once something is in the cart", async ({
      page,
      request,
    }) => {
      // A page the shared cache keeps (the home page), a form page, the cart, a product, the shop:
      // each has the link, to /my-cart, with no count for a visitor without a cart.
      for (const path of ["/", "/contact", "/my-cart", "/shop", "/privacy"]) {
        await page.goto(path);
        await expect(headerCart(page), path).toHaveAttribute("href", "/my-cart");
        await expect(headerCart(page), path).toHaveAccessibleName("Cart");
        await expect(headerCount(page), path).toBeEmpty();
      }

      const door = await productNamed("Fiberglass Six-Panel Entry Door");
      if (mode.javaScriptEnabled) {
        // No reload between the add and the count: a mark set on this document survives.
        await page.goto(`/product/${door.id}`);
        await page.waitForLoadState("networkidle");
        await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
        await page.getByLabel("Quantity", { exact: true }).selectOption("2");
        await page.getByRole("button", { name: "Add to Cart" }).click();
        await expect(page).toHaveURL(/\/my-cart$/);
        await expect(headerCount(page)).toHaveText("2");
        await expect(headerCart(page)).toHaveAccessibleName("Cart, 2 items");
        expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
        // A quantity changed in the cart: the count follows, still without a reload.
        await page.getByLabel("Quantity", { exact: true }).selectOption("3");
        await expect(headerCount(page)).toHaveText("3");
        // A client-side navigation keeps it.
        await page.getByRole("link", { name: "Privacy Notice" }).click();
        await expect(page).toHaveURL(/\/privacy$/);
        await expect(headerCount(page)).toHaveText("3");
        // A page from the shared cache (rendered for nobody) runs the app, which asks the server; a page
        // that runs no script cannot ask, so it is rendered for the cart's holder, with the count.
        for (const [path, shared] of [
          ["/shop", true],
          ["/privacy", false],
          ["/", false],
        ] as const) {
          // A visitor without a cart asks first, so the shared cache holds the page (it keeps one a minute).
          await request.get(path);
          const answer = await page.goto(path);
          if (shared) expect(answer!.headers()["x-page-cache"], path).toBe("hit");
          else expect(answer!.headers()["cache-control"], path).toContain("no-store");
          await expect(headerCount(page), path).toHaveText("3");
        }
      } else {
        await addFromProductPage(page, door, 2, false);
        await expect(headerCount(page)).toHaveText("2");
        await expect(headerCart(page)).toHaveAccessibleName("Cart, 2 items");
        // Every page rendered for this visitor (not answered from the shared cache) says it.
        for (const path of ["/contact", "/request-quote", "/checkout", "/residential-windows"]) {
          const answer = await page.goto(path);
          await expect(headerCount(page), path).toHaveText("2");
          // Rendered for this visitor alone: no cache may keep it.
          expect(answer!.headers()["cache-control"], path).toContain("no-store");
        }
      }
      // The badge sits over the icon's corner: the link is the same size with a count as without.
      const box = (await headerCart(page).boundingBox())!;
      expect(Math.round(box.width)).toBe(44);
      expect(Math.round(box.height)).toBe(44);
    });

    test("the product page's Quantity adds that many; it offers no more than the stock, and more than is left is refused", async ({
      page,
    }) => {
      const opener = await productNamed("Wall-Mount Jackshaft Opener");
      expect(opener.stock).toBeGreaterThanOrEqual(4);
      await page.goto(`/product/${opener.id}`);
      const quantity = page.getByLabel("Quantity", { exact: true });
      // 1 up to the stock, no more.
      await expect(quantity.locator("option")).toHaveText(
        Array.from({ length: opener.stock }, (_, i) => String(i + 1)),
      );
      await expect(page.getByText(`In stock: ${opener.stock}`)).toBeVisible();

      await addFromProductPage(page, opener, 3, mode.javaScriptEnabled);
      const line = page.locator(".cart-item").filter({ hasText: opener.name });
      await expect(line.getByLabel("Quantity", { exact: true })).toHaveValue("3");
      await expect(headerCount(page)).toHaveText("3");

      // The whole stock on top of three: refused whole, the line keeps its three.
      await addFromProductPage(page, opener, opener.stock, mode.javaScriptEnabled);
      await expect(page.getByText(`We could not add that to your cart. ${onlyLeft(opener.stock)}`)).toBeVisible();
      await page.goto("/my-cart");
      await expect(line.getByLabel("Quantity", { exact: true })).toHaveValue("3");
      await expect(headerCount(page)).toHaveText("3");
    });

    test("a search inside a category that finds nothing offers to search all products for the same words", async ({
      page,
    }) => {
      const tuneUp = await productNamed("Garage Door Tune-Up");
      await page.goto(`/shop?category=${tuneUp.category_id}&q=window`);
      await expect(page.getByText("No products match your search.")).toBeVisible();
      const everywhere = page.getByRole("link", { name: "Search all products for “window”" });
      await expect(everywhere).toHaveAttribute("href", "/shop?q=window");
      await everywhere.click();
      await expect(page).toHaveURL(/\/shop\?q=window$/);
      await expect(page.getByRole("heading", { level: 3, name: "Bay Window" })).toBeVisible();
      await expect(page.getByRole("link", { name: /^Search all products for/ })).toHaveCount(0);
      // A search over the whole shop that finds nothing has nowhere wider to go.
      await page.goto("/shop?q=no-such-thing");
      await expect(page.getByText("No products match your search.")).toBeVisible();
      await expect(page.getByRole("link", { name: /^Search all products for/ })).toHaveCount(0);
    });

    test("a service shows no stock count, on its page or in the cart; goods still do", async ({ page }) => {
      const tuneUp = await productNamed("Garage Door Tune-Up");
      await page.goto(`/product/${tuneUp.id}`);
      await expect(page.getByRole("heading", { level: 1, name: tuneUp.name })).toBeVisible();
      await expect(page.getByText(/In stock/)).toHaveCount(0);
      await page.getByRole("button", { name: "Add to Cart" }).click();
      await expect(page).toHaveURL(/\/my-cart$/);
      const remote = await productNamed("Three-Button Visor Remote");
      await addFromProductPage(page, remote, 1, mode.javaScriptEnabled);
      await expect(
        page
          .locator(".cart-item")
          .filter({ hasText: tuneUp.name })
          .getByText(/In stock/),
      ).toHaveCount(0);
      await expect(
        page
          .locator(".cart-item")
          .filter({ hasText: remote.name })
          .getByText(/^In stock: \d+$/),
      ).toBeVisible();
    });
  });

  test.describe(`the shop on a 390 px phone, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });

    test("two cards a row, and the chosen category's chip (the last one) in view", async ({ page }) => {
      const tuneUp = await productNamed("Garage Door Tune-Up");
      const [last] = await e2eQuery<{ id: number; name: string }>(
        "select c.id, c.name from categories c where exists (select 1 from products p where p.category_id = c.id) order by c.id desc limit 1",
      );
      expect(last!.id).toBe(tuneUp.category_id); // Services, the last chip of the row
      for (const path of ["/shop", `/shop?category=${last!.id}`]) {
        await page.goto(path);
        const cards = page.locator(".shop-card");
        expect(await cards.count(), path).toBeGreaterThanOrEqual(4);
        const [a, b, c] = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())!));
        // Side by side, each within half the screen; the third starts the next row.
        expect(Math.abs(a!.y - b!.y), path).toBeLessThan(1);
        expect(b!.x, path).toBeGreaterThan(a!.x + a!.width);
        expect(a!.width, path).toBeLessThan(195);
        expect(b!.x + b!.width, path).toBeLessThanOrEqual(390);
        expect(c!.y, path).toBeGreaterThan(a!.y + a!.height);
        expect(Math.abs(c!.x - a!.x), path).toBeLessThan(1);
      }
      // The chosen chip is inside the viewport, sideways too, before and after scripts run.
      const chip = page.getByRole("link", { name: last!.name, exact: true });
      await expect(chip).toHaveAttribute("aria-current", "page");
      await expect(chip).toBeInViewport({ ratio: 1 });
      const box = (await chip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      // And the page itself was not scrolled sideways to get it there.
      expect(await page.evaluate(() => window.scrollX)).toBe(0);
    });
  });
}
