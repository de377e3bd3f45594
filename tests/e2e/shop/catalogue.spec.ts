import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../support/test";

type ApiProduct = { id: number; name: string; price: number; category: number; stock: number };
type ApiCategory = { id: number; name: string };

async function catalogue(request: APIRequestContext) {
  const products = (await (await request.get("/api/store/inventory/list")).json()) as ApiProduct[];
  const categories = (await (await request.get("/api/store/category/list")).json()) as ApiCategory[];
  const product = (name: string) => products.find((p) => p.name === name)!;
  const category = (name: string) => categories.find((c) => c.name === name)!;
  return { products, categories, product, category };
}

const cardNames = (page: Page) => page.locator(".shop-card-title");

/** Marks the document: still there after a client navigation, gone after a full load. */
const markDocument = (page: Page) => page.evaluate(() => ((window as { shopMark?: number }).shopMark = 1));
const documentMarked = (page: Page) => page.evaluate(() => (window as { shopMark?: number }).shopMark === 1);

for (const javaScriptEnabled of [true, false]) {
  test.describe(`shop, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the collection: heading, categories with 'All', a card per product with its price and 'View Details'", async ({
      page,
      request,
    }) => {
      const { products, categories } = await catalogue(request);
      await page.goto("/shop");
      await expect(page.getByRole("heading", { level: 1, name: "Shop Our Collection" })).toBeVisible();
      await expect(page.getByText("All pricing includes installation", { exact: true })).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Categories" });
      await expect(nav.getByRole("link")).toHaveText(["All", ...categories.map((c) => c.name)]);
      await expect(nav.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
      await expect(page.getByPlaceholder("Search products...")).toBeVisible();
      await expect(page.getByLabel("Sort by").locator("option")).toHaveText([
        "A-Z",
        "Z-A",
        "Price Low to High",
        "Price High to Low",
      ]);
      await expect(cardNames(page)).toHaveCount(products.length);
      const opener = page.locator(".shop-card", { hasText: "Belt-Drive Garage Door Opener" });
      await expect(opener.locator(".shop-price")).toHaveText("$549.00");
      await opener.getByRole("link", { name: /^View Details/ }).click();
      await expect(page).toHaveURL(`/product/${products.find((p) => p.name === "Belt-Drive Garage Door Opener")!.id}`);
      await expect(page.getByRole("heading", { level: 1, name: "Belt-Drive Garage Door Opener" })).toBeVisible();
    });

    test("category, search and sort live in the URL and survive the back button", async ({ page, request }) => {
      const { products, category } = await catalogue(request);
      await page.goto("/shop");
      if (javaScriptEnabled) await markDocument(page);

      // Category: a link.
      const windows = category("Windows");
      await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Windows" }).click();
      await expect(page).toHaveURL(`/shop?category=${windows.id}`);
      const windowNames = products
        .filter((p) => p.category === windows.id)
        .map((p) => p.name)
        .sort();
      await expect(cardNames(page)).toHaveText(windowNames);

      // Search within the category: as the visitor types with JavaScript, on Enter without.
      const search = page.getByPlaceholder("Search products...");
      await search.fill("BASEMENT");
      if (!javaScriptEnabled) await search.press("Enter");
      await expect(page).toHaveURL(`/shop?category=${windows.id}&q=BASEMENT`);
      await expect(cardNames(page)).toHaveText(["Sliding Basement Window"]);

      // Back to every category, search kept; then the sort.
      await page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "All" }).click();
      await expect(page).toHaveURL("/shop?q=BASEMENT");
      await search.fill("door opener");
      if (!javaScriptEnabled) await search.press("Enter");
      await expect(page).toHaveURL("/shop?q=door+opener");
      await expect(cardNames(page)).toHaveText([
        "Belt-Drive Garage Door Opener",
        "Chain-Drive Garage Door Opener",
        "Screw-Drive Garage Door Opener",
      ]);
      await page.getByLabel("Sort by").selectOption("Price High to Low");
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL("/shop?q=door+opener&sort=price-desc");
      await expect(cardNames(page)).toHaveText([
        "Belt-Drive Garage Door Opener",
        "Screw-Drive Garage Door Opener",
        "Chain-Drive Garage Door Opener",
      ]);
      await expect(page.locator(".shop-price")).toHaveText(["$549.00", "$489.00", "$429.00"]);
      if (javaScriptEnabled) expect(await documentMarked(page)).toBe(true);

      // To a product and back: the list as it was.
      await page
        .locator(".shop-card", { hasText: "Chain-Drive" })
        .getByRole("link", { name: /^View Details/ })
        .click();
      await expect(page.getByRole("heading", { level: 1, name: "Chain-Drive Garage Door Opener" })).toBeVisible();
      await page.goBack();
      await expect(page).toHaveURL("/shop?q=door+opener&sort=price-desc");
      await expect(cardNames(page)).toHaveText([
        "Belt-Drive Garage Door Opener",
        "Screw-Drive Garage Door Opener",
        "Chain-Drive Garage Door Opener",
      ]);
      await expect(page.getByPlaceholder("Search products...")).toHaveValue("door opener");
      await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");

      // Nothing found.
      await search.fill("skylight");
      if (!javaScriptEnabled) await search.press("Enter");
      await expect(page.getByText("No products match your search.")).toBeVisible();
      await expect(cardNames(page)).toHaveCount(0);
    });

    test("a shared link shows the same list; every sort orders it", async ({ page, request }) => {
      const { products, category } = await catalogue(request);
      const doors = category("Garage Doors");
      const inDoors = products.filter((p) => p.category === doors.id);
      const expected = {
        "name-asc": inDoors.map((p) => p.name).sort(),
        "name-desc": inDoors
          .map((p) => p.name)
          .sort()
          .reverse(),
        "price-asc": [...inDoors].sort((a, b) => a.price - b.price).map((p) => p.name),
        "price-desc": [...inDoors].sort((a, b) => b.price - a.price).map((p) => p.name),
      };
      for (const [sort, names] of Object.entries(expected)) {
        await page.goto(`/shop?category=${doors.id}&sort=${sort}`);
        await expect(cardNames(page)).toHaveText(names);
        await expect(
          page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Garage Doors" }),
        ).toHaveAttribute("aria-current", "page");
      }
      // The no-JS form's empty fields and unknown values redirect to the one way of writing the address.
      await page.goto(`/shop?category=&q=&sort=name-asc`);
      await expect(page).toHaveURL("/shop");
      await page.goto(`/shop?category=abc&sort=cheapest&q=%20glass%20`);
      await expect(page).toHaveURL("/shop?q=glass");
      await expect(cardNames(page)).toHaveText([
        "Fiberglass Six-Panel Entry Door",
        "Modern Flush Aluminum and Glass Garage Door",
        "Steel Entry Door with Decorative Glass",
      ]);
    });

    test("product options: each reads 'label (+$price)', the price follows the choices, and Add to Cart posts them to /my-cart", async ({
      page,
      request,
    }) => {
      const { product } = await catalogue(request);
      const door = product("Classic Raised-Panel Steel Garage Door");
      await page.goto("/shop?q=raised");
      if (javaScriptEnabled) await markDocument(page);
      await page.getByRole("link", { name: /^View Details/ }).click();
      await expect(page).toHaveURL(`/product/${door.id}`);
      await expect(page.locator(".product-price")).toHaveText("$1,349.00");
      await expect(page.getByRole("group", { name: "Customization Options" })).toBeVisible();
      const size = page.getByLabel("Door Size");
      await expect(size.locator("option")).toHaveText([
        "8 ft x 7 ft single (+$0.00)",
        "9 ft x 7 ft single (+$85.00)",
        "16 ft x 7 ft double (+$740.00)",
      ]);
      // The first option of every field is preselected.
      await expect(size).toHaveValue("8 ft x 7 ft single");
      await expect(page.getByLabel("Color")).toHaveValue("White");

      await size.selectOption("16 ft x 7 ft double");
      await page.getByLabel("Color").selectOption("Walnut woodgrain");
      const update = page.getByRole("button", { name: "Update price" });
      if (javaScriptEnabled) {
        await expect(update).toBeHidden();
        expect(await documentMarked(page)).toBe(true);
      } else {
        await update.click();
        await expect(page).toHaveURL(/\/product\/\d+\?.*selectedOptions\.Door\+Size=16\+ft\+x\+7\+ft\+double/);
      }
      await expect(page.locator(".product-price")).toHaveText("$2,384.00"); // 1,349 + 740 + 295
      await expect(size).toHaveValue("16 ft x 7 ft double");
      await expect(page.getByLabel("Color")).toHaveValue("Walnut woodgrain");

      // The Add to Cart form: what the cart reads (it recomputes the price itself).
      const form = page.locator("form", { has: page.getByRole("button", { name: "Add to Cart" }) });
      await expect(form).toHaveAttribute("method", /post/i);
      await expect(form).toHaveAttribute("action", "/my-cart");
      await expect(form.locator('input[name="intent"]')).toHaveValue("add");
      await expect(form.locator('input[name="inventory_id"]')).toHaveValue(String(door.id));
      await expect(form.locator('select[name="selectedOptions.Door Size"]')).toHaveValue("16 ft x 7 ft double");
      await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled();

      // Back: to the shop as it was left.
      await page.getByRole("link", { name: "Back" }).click();
      await expect(page).toHaveURL(javaScriptEnabled ? "/shop?q=raised" : "/shop");
      await expect(page.getByRole("heading", { level: 1, name: "Shop Our Collection" })).toBeVisible();
    });

    test("an out-of-stock product says so on its card and its page, which has no add button or options but a call and quote link; fallbacks and 'Product not found.' with 404", async ({
      page,
      request,
    }) => {
      const { product } = await catalogue(request);
      const economy = product("Economy Ribbed Steel Garage Door");
      expect(economy.stock).toBe(0);
      await page.goto("/shop?q=ribbed");
      const card = page.locator(".shop-card", { hasText: economy.name });
      await expect(card.getByText("Out of stock", { exact: true })).toBeVisible();
      // Cards of products in stock say nothing of it.
      await page.goto("/shop?q=raised");
      await expect(page.locator(".shop-card").first()).toBeVisible();
      await expect(page.getByText("Out of stock", { exact: true })).toHaveCount(0);

      await page.goto(`/product/${economy.id}`);
      await expect(page.locator(".product-stock")).toHaveText("Out of stock");
      await expect(page.getByRole("button", { name: /add to cart|out of stock/i })).toHaveCount(0);
      // No options to choose or price for what cannot be bought (issue 45 item 7): a way forward instead.
      await expect(page.getByText("Customization Options")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Update price" })).toHaveCount(0);
      const instead = page.locator(".product-out-of-stock");
      await expect(instead).toHaveText(
        `We have no ${economy.name} on hand. Call us at (810) 555-0100 to order one or to hear when it is back, or ask for a quote.`,
      );
      await expect(instead.getByRole("link", { name: "(810) 555-0100" })).toHaveAttribute("href", "tel:+18105550100");
      await instead.getByRole("link", { name: "ask for a quote" }).click();
      await expect(page).toHaveURL("/request-quote");
      await page.goBack();

      // A product without options shows no options section.
      await page.goto(`/product/${product("Three-Button Visor Remote").id}`);
      await expect(page.getByText("Customization Options")).toHaveCount(0);
      await expect(page.locator(".product-price")).toHaveText("$39.00");

      for (const path of [
        "/product/999999",
        "/product/abc",
        "/product/1.5",
        "/product/-1",
        "/product/99999999999999",
      ]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: "Product not found." })).toBeVisible();
      }
    });
  });
}

test("'Loading product details...' and 'Loading products...' while a client transition loads", async ({ page }) => {
  await page.goto("/shop");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/product\/\d+\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await page
    .locator(".shop-card")
    .first()
    .getByRole("link", { name: /^View Details/ })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Loading product details..." })).toBeVisible();
  release();
  await expect(page.locator(".product-name")).toBeVisible();

  let releaseShop!: () => void;
  const heldShop = new Promise<void>((resolve) => (releaseShop = resolve));
  await page.route(/\/shop\.data/, async (route) => {
    await heldShop;
    await route.continue();
  });
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Loading products..." })).toBeVisible();
  releaseShop();
  await expect(page.getByRole("heading", { level: 1, name: "Shop Our Collection" })).toBeVisible();
});

test.describe("catalogue API (SPEC §7)", () => {
  test("category list, inventory list and one product, in SPEC §7's shapes, cacheable", async ({ request }) => {
    const categories = await request.get("/api/store/category/list");
    expect(categories.status()).toBe(200);
    expect(categories.headers()["cache-control"]).toMatch(/s-maxage=\d+/);
    const categoryList = (await categories.json()) as ApiCategory[];
    expect(categoryList.map((c) => c.name)).toContain("Services");
    for (const c of categoryList) expect(Object.keys(c).sort()).toEqual(["id", "name"]);

    const list = await request.get("/api/store/inventory/list");
    expect(list.headers()["cache-control"]).toMatch(/s-maxage=\d+/);
    const products = (await list.json()) as Record<string, unknown>[];
    expect(products.length).toBeGreaterThanOrEqual(20);
    for (const p of products) {
      expect(p).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          name: expect.any(String),
          price: expect.any(Number),
          image: expect.stringMatching(/^\/images\/shop\//),
          category: expect.any(Number),
          description: expect.any(String),
          customFields: expect.any(Array),
        }),
      );
      expect(categoryList.map((c) => c.id)).toContain(p.category);
    }
    const tuneUp = products.find((p) => p.name === "Garage Door Tune-Up")!;
    expect(tuneUp.price).toBe(129.95);

    const one = await request.get(`/api/store/inventory/get/${String(tuneUp.id)}`);
    expect(one.headers()["cache-control"]).toMatch(/s-maxage=\d+/);
    expect(await one.json()).toEqual(tuneUp);
    expect((await request.get(`/api/store/inventory/get/${String(tuneUp.id)}`)).status()).toBe(200);
    const image = await request.get(String(tuneUp.image));
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toContain("image/svg+xml");

    for (const id of ["999999", "abc", "0"]) {
      const missing = await request.get(`/api/store/inventory/get/${id}`);
      expect(missing.status(), id).toBe(404);
      expect(await missing.json()).toEqual({ success: false, message: "Product not found." });
    }
  });
});
