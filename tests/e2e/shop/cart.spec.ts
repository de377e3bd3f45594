import { type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { formatUsd, parseDollars } from "../../../app/payments/money";
import { closeE2eSql, e2eQuery } from "../support/db";
import { CART_BLOCKED_MESSAGE, CART_LINE_PROBLEMS, CART_MESSAGES, onlyLeft } from "../../../app/shop/cart-schema";

/**
 * The cart with JavaScript on and off (issue 17 item 4): two products added
 * from their pages (one with a chosen option), priced by the server, one
 * deleted through the 'Confirm Deletion' dialog (with JavaScript) or its
 * confirmation step (without), Cancel keeping it. Quantities and stock (issue
 * 30, DECISIONS 34): the same door added twice is one line of two, its
 * quantity set with the Update control (sent on change with JavaScript, by
 * its Update button without), one more than the stock refused at the add, and
 * a line out of stock leaving the total and closing the checkout. Each test
 * is a new visitor (its own browser context, so its own cart cookie).
 */
test.afterAll(closeE2eSql);

type Product = {
  id: number;
  name: string;
  price_cents: number;
  custom_fields: { name: string; options: { label: string; price: number }[] }[];
};

/** Two products in stock: one whose first field has a second option, one more. */
async function twoProducts(): Promise<[Product, Product]> {
  const rows = await e2eQuery<Product>(
    "select id, name, price_cents, custom_fields from products where stock > 0 order by id",
  );
  const withOption = rows.find((p) => (p.custom_fields[0]?.options.length ?? 0) > 1)!;
  const other = rows.find((p) => p.id !== withOption.id)!;
  return [withOption, other];
}

/** The price the server must show: base plus the chosen options (the first option where none is chosen). */
function priceOf(product: Product, chosen: Record<string, string> = {}): number {
  return product.custom_fields.reduce((sum, field) => {
    const option = field.options.find((o) => o.label === chosen[field.name]) ?? field.options[0]!;
    return sum + parseDollars(String(option.price))!;
  }, product.price_cents);
}

async function addFromProductPage(
  page: Page,
  product: Product,
  javaScriptEnabled: boolean,
  chosen: Record<string, string> = {},
) {
  await page.goto(`/product/${product.id}`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  for (const [field, label] of Object.entries(chosen)) {
    await page.getByLabel(field, { exact: true }).selectOption({
      label: `${label} (+${formatUsd(parseDollars(String(product.custom_fields.find((f) => f.name === field)!.options.find((o) => o.label === label)!.price))!)})`,
    });
  }
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
}

const row = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an empty cart sets no cookie and is never cached; add two products, delete one after confirming", async ({
      page,
    }) => {
      const first = await page.goto("/my-cart");
      expect(first!.status()).toBe(200);
      expect(first!.headers()["cache-control"]).toBe("private, no-store");
      expect(first!.headers()["set-cookie"]).toBeUndefined();
      await expect(page.getByRole("heading", { level: 1, name: "Your Shopping Cart" })).toBeVisible();
      await expect(page.getByText("Your cart is empty")).toBeVisible();
      expect(await page.context().cookies()).toEqual([]);

      const [withOption, other] = await twoProducts();
      const field = withOption.custom_fields[0]!;
      const chosen = { [field.name]: field.options[1]!.label };
      await addFromProductPage(page, withOption, javaScriptEnabled, chosen);
      const cookies = await page.context().cookies();
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([["cart", true, "Lax"]]);

      const optioned = row(page, withOption.name);
      await expect(optioned.getByText(formatUsd(priceOf(withOption, chosen)), { exact: true })).toBeVisible();
      await expect(optioned.getByText(`${field.name}: ${field.options[1]!.label}`)).toBeVisible();
      await expect(optioned.getByText(/^In stock: \d+$/)).toBeVisible();

      await addFromProductPage(page, other, javaScriptEnabled);
      await expect(page.getByRole("list", { name: "Items in your cart" }).getByRole("heading")).toHaveText([
        withOption.name,
        other.name,
      ]);
      await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(priceOf(withOption, chosen) + priceOf(other)));
      await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toHaveAttribute("href", "/checkout");

      const deleteOther = page.getByRole("button", { name: `Delete ${other.name}` });
      const itemId = (await deleteOther.getAttribute("value"))!;
      const question = `Are you sure you want to remove ${other.name} from your cart?`;

      if (javaScriptEnabled) {
        await page.waitForLoadState("networkidle");
        await deleteOther.click();
        const dialog = page.getByRole("dialog", { name: "Confirm Deletion" });
        await expect(dialog).toBeVisible();
        await expect(dialog.getByText(question)).toBeVisible();
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await expect(dialog).toBeHidden();
        await expect(row(page, other.name)).toBeVisible();

        await deleteOther.click();
        await dialog.getByRole("button", { name: "Yes, Delete" }).click();
        await expect(dialog).toBeHidden();
      } else {
        await deleteOther.click();
        await expect(page).toHaveURL(new RegExp(`/my-cart\\?remove=${itemId}#cart-confirm-title$`));
        const step = page.getByRole("region", { name: "Confirm Deletion" });
        await expect(step.getByText(question)).toBeVisible();
        // The question takes the keyboard: the next Tab is its answer, not the header's links again.
        await page.keyboard.press("Tab");
        await expect(step.getByRole("button", { name: "Yes, Delete" })).toBeFocused();
        await step.getByRole("link", { name: "Cancel" }).click();
        await expect(page).toHaveURL(/\/my-cart$/);
        await expect(page.getByRole("region", { name: "Confirm Deletion" })).toHaveCount(0);
        await expect(row(page, other.name)).toBeVisible();

        await deleteOther.click();
        await page
          .getByRole("region", { name: "Confirm Deletion" })
          .getByRole("button", { name: "Yes, Delete" })
          .click();
        await expect(page).toHaveURL(/\/my-cart$/);
      }

      await expect(row(page, other.name)).toHaveCount(0);
      await expect(row(page, withOption.name)).toBeVisible();
      await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(priceOf(withOption, chosen)));
      expect(await e2eQuery("select id from cart_items where id = $1", [itemId])).toEqual([]);

      // A refresh shows the same cart and posts nothing again.
      await page.reload();
      await expect(page.getByRole("list", { name: "Items in your cart" }).getByRole("heading")).toHaveText([
        withOption.name,
      ]);
    });
  });
}

/** The door: 5 in stock in the seed data, which no spec buys. */
const DOOR = "Steel Entry Door with Decorative Glass";
/** Sold out in the seed data: put in a cart by hand, it is a line whose last unit another buyer took. */
const SOLD_OUT = "Economy Ribbed Steel Garage Door";

type Stocked = Product & { stock: number };
const productNamed = async (name: string) =>
  (
    await e2eQuery<Stocked>("select id, name, price_cents, custom_fields, stock from products where name = $1", [name])
  )[0]!;
const lineQuantity = async (itemId: string) =>
  (await e2eQuery<{ quantity: number }>("select quantity from cart_items where id = $1", [itemId]))[0]?.quantity;

for (const javaScriptEnabled of [true, false]) {
  test.describe(`quantities, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the same door added twice is one line of 2; Update sets the stock; one more is refused at the add; a line out of stock leaves the total and closes the checkout", async ({
      page,
    }) => {
      const door = await productNamed(DOOR);
      const stock = door.stock;
      expect(stock).toBeGreaterThanOrEqual(3);
      const unit = priceOf(door);

      await addFromProductPage(page, door, javaScriptEnabled);
      await addFromProductPage(page, door, javaScriptEnabled);
      await expect(page.locator(".cart-item")).toHaveCount(1);
      const line = row(page, door.name);
      const quantity = line.getByLabel("Quantity");
      await expect(quantity).toHaveValue("2");
      await expect(line.locator(".cart-item-price")).toHaveText(`${formatUsd(unit)} each`);
      await expect(line.locator(".cart-item-line-total")).toHaveText(`Subtotal: ${formatUsd(2 * unit)}`);
      await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(2 * unit));
      // The select offers what the stock holds, no more.
      await expect(quantity.locator("option")).toHaveText(Array.from({ length: stock }, (_, i) => String(i + 1)));
      const itemId = (await page.getByRole("button", { name: `Delete ${door.name}` }).getAttribute("value"))!;
      expect(await lineQuantity(itemId)).toBe(2);

      // The whole stock: sent as soon as it is chosen (no new page), or with Update.
      const update = line.getByRole("button", { name: "Update" });
      if (javaScriptEnabled) {
        await expect(update).toBeHidden();
        await page.evaluate(() => ((window as unknown as { samePage?: boolean }).samePage = true));
        await quantity.selectOption(String(stock));
        await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(stock * unit));
        expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
      } else {
        await quantity.selectOption(String(stock));
        await update.click();
        await expect(page).toHaveURL(/\/my-cart$/);
        await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(stock * unit));
      }
      await expect(quantity).toHaveValue(String(stock));
      expect(await lineQuantity(itemId)).toBe(stock);

      // One more from the product page: refused at once, in the line, which stays at the stock.
      await addFromProductPage(page, door, javaScriptEnabled);
      await expect(line.getByRole("alert")).toHaveText(`We could not add that to your cart. ${onlyLeft(stock)}`);
      await expect(line.getByRole("alert")).toHaveText(
        `We could not add that to your cart. Only ${stock} left in stock.`,
      );
      await expect(quantity).toHaveValue(String(stock));
      await expect(page.locator(".cart-item")).toHaveCount(1);
      expect(await lineQuantity(itemId)).toBe(stock);

      // Posted by hand: two more than the stock is refused and kept at the stock; forged numbers are a 400.
      const beyond = await page.request.post("/my-cart", {
        form: { intent: "update", cart_id: itemId, quantity: String(stock + 2) },
        maxRedirects: 0,
      });
      expect(beyond.status()).toBe(409);
      expect(await beyond.text()).toContain(onlyLeft(stock));
      for (const forged of ["-1", "0", "1000000000", "abc"]) {
        const res = await page.request.post("/my-cart", {
          form: { intent: "update", cart_id: itemId, quantity: forged },
          maxRedirects: 0,
        });
        expect(res.status(), forged).toBe(400);
        expect(await res.text()).toContain(CART_MESSAGES.quantity);
      }
      expect(await lineQuantity(itemId)).toBe(stock);

      // Another buyer took the last one of a product in this cart.
      const soldOut = await productNamed(SOLD_OUT);
      expect(soldOut.stock).toBe(0);
      await e2eQuery("insert into cart_items (cart_id, product_id) select cart_id, $1 from cart_items where id = $2", [
        soldOut.id,
        itemId,
      ]);
      await page.goto("/my-cart");
      const out = row(page, soldOut.name);
      await expect(out.getByText(CART_LINE_PROBLEMS.outOfStock)).toBeVisible();
      await expect(out.getByText("Not counted in the total.")).toBeVisible();
      await expect(out.getByLabel("Quantity")).toHaveCount(0);
      await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(stock * unit));
      await expect(page.getByText(CART_BLOCKED_MESSAGE)).toBeVisible();
      await expect(page.getByRole("button", { name: "Proceed to Checkout" })).toBeDisabled();
      await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toHaveCount(0);
      // The checkout page says why, and has no form to fill in.
      await page.goto("/checkout");
      await expect(page.getByText(`${soldOut.name}: ${CART_LINE_PROBLEMS.outOfStock}`)).toBeVisible();
      await expect(page.getByRole("form", { name: "Checkout form" })).toHaveCount(0);
      await page.getByRole("link", { name: "Edit Cart" }).click();
      await expect(page).toHaveURL(/\/my-cart$/);

      // Removed, the cart can go to the checkout again.
      const deleteOut = page.getByRole("button", { name: `Delete ${soldOut.name}` });
      if (javaScriptEnabled) {
        await page.waitForLoadState("networkidle");
        await deleteOut.click();
        await page
          .getByRole("dialog", { name: "Confirm Deletion" })
          .getByRole("button", { name: "Yes, Delete" })
          .click();
      } else {
        await deleteOut.click();
        await page
          .getByRole("region", { name: "Confirm Deletion" })
          .getByRole("button", { name: "Yes, Delete" })
          .click();
      }
      await expect(out).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toHaveAttribute("href", "/checkout");
      await expect(page.getByText(CART_BLOCKED_MESSAGE)).toHaveCount(0);
    });
  });
}

test("a forged price posted to the page's form is ignored, an unknown option is refused with a message, another visitor sees an empty cart", async ({
  page,
  browser,
}) => {
  const [, other] = await twoProducts();
  await page.goto("/my-cart");
  // The product page's form as a hostile client would send it: a made-up price and option.
  const refused = await page.request.post("/my-cart", {
    form: { intent: "add", inventory_id: String(other.id), final_price: "0.01", "selectedOptions.Colour": "Free" },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("We could not add that to your cart.");
  expect(await page.context().cookies()).toEqual([]);

  const added = await page.request.post("/my-cart", {
    form: { intent: "add", inventory_id: String(other.id), final_price: "0.01" },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(303);
  await page.goto("/my-cart");
  await expect(page.getByTestId("cart-total")).toHaveText(formatUsd(priceOf(other)));

  const stranger = await browser.newPage();
  await stranger.goto("/my-cart");
  await expect(stranger.getByText("Your cart is empty")).toBeVisible();
  await stranger.close();
});
