import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { formatUsd } from "../../../app/payments/money";
import { TEST_CARDS, TEST_CVCS, cardNumberForms } from "../support/cards";
import { closeE2eSql } from "../support/db";
import { CARD_SECRETS_NOTICE } from "../../../app/forms/card-names";
import { STOCK_MESSAGES } from "../../../app/shop/checkout/identity";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "../forms/helpers";

/**
 * The checkout with JavaScript on and off (issue 17 items 5-6): a product
 * added from its page, the cart, 'Proceed to Checkout', the summary, the
 * card 4242… and the confirmation with the order's id and total read from
 * the database; a declined card keeps the cart and every field but the card
 * number and CVC (a decline then another card: ./checkout-cards.spec.ts); a
 * cart changed in another tab after the page showed it is refused with its new
 * total, then placed at that total. Each test is a new visitor (its own cart
 * cookie).
 */
test.afterAll(closeE2eSql);

type Product = { id: number; name: string; price_cents: number };

/** A product with plenty of stock and no options (its price is its base price), one per mode so runs do not share a row. */
async function productFor(index: number): Promise<Product> {
  const rows = await dbRows<Product>(
    "select id, name, price_cents from products where stock >= 20 and custom_fields = '[]'::jsonb order by id",
  );
  return rows[index % rows.length]!;
}

async function addToCart(page: Page, product: Product, javaScriptEnabled: boolean) {
  await page.goto(`/product/${product.id}`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
}

async function fillBilling(form: Locator, email: string) {
  await form.getByLabel("Full Name").fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone").fill("(810) 555-0142");
  // Exactly these names: the installation block has an "Installation Address", "Installation City"…
  await form.getByRole("textbox", { name: "Address", exact: true }).fill("12 Saginaw St");
  await form.getByRole("textbox", { name: "City", exact: true }).fill("Flint");
  await form.getByRole("textbox", { name: "ZIP Code", exact: true }).fill("48502");
}

async function fillCard(form: Locator, number: string, javaScriptEnabled: boolean) {
  const card = form.getByLabel("Card Number");
  const expiry = form.getByLabel("Expiry (MM/YY)");
  if (javaScriptEnabled) {
    await card.pressSequentially(cardNumberForms(number).digits);
    await expect(card).toHaveValue(number); // grouped in fours as typed
    // A form sent back keeps its expiry: typed over, as a person would select it first.
    await expiry.clear();
    await expiry.pressSequentially("0430");
    await expect(expiry).toHaveValue("04/30");
  } else {
    await card.fill(number);
    await expiry.fill("04/30");
  }
  await form.getByLabel("CVC").fill(TEST_CVCS.three);
}

test("an empty cart's checkout says so and shows no form", async ({ page }) => {
  const response = await page.goto("/checkout");
  expect(response!.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByText("Your cart is empty. Add items before checking out.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Checkout form" })).toHaveCount(0);
});

for (const [index, mode] of modes.entries()) {
  test.describe(`checkout, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("cart → checkout with 4242… → the order's page shows its reference and total; another visitor sees N/A", async ({
      page,
      browser,
    }) => {
      const visitor = await asNewVisitor(page);
      const product = await productFor(index);
      await addToCart(page, product, mode.javaScriptEnabled);
      await page.getByRole("link", { name: "Proceed to Checkout" }).click();
      await expect(page).toHaveURL(/\/checkout$/);
      await open(page, "/checkout", mode.javaScriptEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();

      const summary = page.getByRole("complementary", { name: "Order summary" });
      await expect(summary.getByRole("listitem")).toHaveText([`${product.name}${formatUsd(product.price_cents)}`]);
      await expect(summary.getByTestId("checkout-total")).toHaveText(formatUsd(product.price_cents));
      await expect(summary.getByRole("link", { name: "Edit Cart" })).toHaveAttribute("href", "/my-cart");

      const form = page.getByRole("form", { name: "Checkout form" });
      await expect(form.getByRole("textbox", { name: "State", exact: true })).toHaveValue("MI");
      await fillBilling(form, visitor.email);
      await fillCard(form, TEST_CARDS.approve, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Place Order" }).click();

      // The order's own page (its link's token); without JavaScript the browser keeps the form action's #fragment across the 303.
      await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}\?placed(#checkout-status)?$/);
      await expect(page.getByRole("heading", { level: 1, name: "Your Order Was Successful!" })).toBeVisible();
      // One "what happens next" (issue 38 item 7): the confirmation line, then when we call, said once.
      await expect(page.getByText("A confirmation email has been sent to you.")).toBeVisible();
      await expect(page.getByText(/representative will call you within two business days/)).toHaveCount(1);
      await expect(page.getByText(/reach out shortly/)).toHaveCount(0);
      const [order] = await dbRows<{
        id: number;
        reference: string;
        total_cents: number;
        status: string;
        amount_cents: number;
      }>(
        "select o.id, o.reference, o.total_cents, o.status, p.amount_cents from orders o join payments p on p.id = o.payment_id where o.email = $1",
        visitor.email,
      );
      expect(order).toEqual({
        id: expect.any(Number),
        reference: expect.stringMatching(/^DO-[0-9A-Z]{4}-[0-9A-Z]{2}$/),
        total_cents: product.price_cents,
        status: "paid",
        amount_cents: product.price_cents,
      });
      await expect(page.getByTestId("order-reference")).toHaveText(order!.reference);
      await expect(page.getByTestId("order-lines-total")).toHaveText(formatUsd(product.price_cents));
      await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");

      // The cart is empty now; the order is its placing cart's only.
      await page.goto("/my-cart");
      await expect(page.getByText("Your cart is empty")).toBeVisible();
      const stranger = await browser.newPage({ javaScriptEnabled: mode.javaScriptEnabled });
      await stranger.goto(`/order-confirmation?order=${order!.id}`);
      await expect(stranger.getByTestId("order-id")).toHaveText("N/A");
      await expect(stranger.getByTestId("order-total")).toHaveText("N/A");
      await stranger.close();
    });

    test("the cart changed in another tab after the page showed it: refused with the new total, nothing charged; placed again at that total", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const first = await productFor(index + 4);
      const second = await productFor(index + 5);
      await addToCart(page, first, mode.javaScriptEnabled);
      await open(page, "/checkout", mode.javaScriptEnabled);
      const summary = page.getByRole("complementary", { name: "Order summary" });
      await expect(summary.getByTestId("checkout-total")).toHaveText(formatUsd(first.price_cents));
      const form = page.getByRole("form", { name: "Checkout form" });
      await fillBilling(form, visitor.email);
      await fillCard(form, TEST_CARDS.approve, mode.javaScriptEnabled);

      // The same visitor adds another product in a second tab.
      const tab = await page.context().newPage();
      await addToCart(tab, second, mode.javaScriptEnabled);
      await tab.close();
      const total = formatUsd(first.price_cents + second.price_cents);

      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Place Order" }).click();
      await expect(statusMessage(page)).toHaveText(STOCK_MESSAGES.totalChanged(total));
      await expect(page).toHaveURL(/\/checkout(#checkout-status)?$/);
      await expect(summary.getByTestId("checkout-total")).toHaveText(total);
      await expect(summary.getByRole("listitem")).toHaveCount(2);
      expect(await dbRows("select id from orders where email = $1", visitor.email)).toEqual([]);

      const again = page.getByRole("form", { name: "Checkout form" });
      await expect(again.getByLabel("Full Name")).toHaveValue("Grace Hopper");
      await expect(again.getByLabel("Card Number")).toHaveValue("");
      await fillCard(again, TEST_CARDS.approve, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, again);
      await again.getByRole("button", { name: "Place Order" }).click();
      await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{43}\?placed(#checkout-status)?$/);
      await expect(page.getByTestId("order-lines-total")).toHaveText(total);
      const orders = await dbRows<{ total_cents: number; amount_cents: number }>(
        "select o.total_cents, p.amount_cents from orders o join payments p on p.id = o.payment_id where o.email = $1",
        visitor.email,
      );
      const cents = first.price_cents + second.price_cents;
      expect(orders).toEqual([{ total_cents: cents, amount_cents: cents }]);
    });

    test("a declined card: the gateway's message and what to do, nothing ordered, the cart and every field but the card number and CVC kept", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const product = await productFor(index + 2);
      await addToCart(page, product, mode.javaScriptEnabled);
      await open(page, "/checkout", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Checkout form" });
      await fillBilling(form, visitor.email);
      await fillCard(form, TEST_CARDS.decline, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Place Order" }).click();

      await expect(statusMessage(page)).toHaveText("Your card was declined. Try another card, or call your bank.");
      // The card number and CVC come back empty, and the page says why.
      await expect(page.locator(".form-status .form-notice")).toHaveText(CARD_SECRETS_NOTICE);
      await expect(page).toHaveURL(/\/checkout(#checkout-status)?$/);
      const kept = page.getByRole("form", { name: "Checkout form" });
      await expect(kept.getByLabel("Full Name")).toHaveValue("Grace Hopper");
      await expect(kept.getByLabel("Email")).toHaveValue(visitor.email);
      await expect(kept.getByLabel("Expiry (MM/YY)")).toHaveValue("04/30");
      await expect(kept.getByLabel("Card Number")).toHaveValue("");
      await expect(kept.getByLabel("CVC")).toHaveValue("");
      expect(await dbRows("select id from orders where email = $1", visitor.email)).toEqual([]);
      await page.goto("/my-cart");
      await expect(page.getByRole("heading", { name: product.name })).toBeVisible();
    });
  });
}
