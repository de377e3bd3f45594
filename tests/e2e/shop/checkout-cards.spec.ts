import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { TEST_CARDS, TEST_CVCS } from "../support/cards";
import { CARD_ENTRY, expectCaptchaKept, typeCardNumber, typeExpiry } from "../support/card-entry";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "../forms/helpers";

/**
 * The checkout's card entry, JavaScript on and off (issue 30 item 5, docs/decisions/059): the
 * same fields and labels as the booking's and the invoice's ('Expiry (MM/YY)', 'CVC'); an expiry
 * typed as '1229' is December 2029 (with JavaScript the mask shows 12/29; without, the server
 * reads it); a declined card says what to do, and another card then pays the same render without
 * the captcha solved again. Each test is a new visitor (its own cart cookie).
 */
test.afterAll(closeE2eSql);

type Product = { id: number; name: string; price_cents: number };

/** A product with plenty of stock and no options, from the middle of the list (the other checkout specs take its ends). */
async function productFor(index: number): Promise<Product> {
  const rows = await dbRows<Product>(
    "select id, name, price_cents from products where stock >= 20 and custom_fields = '[]'::jsonb order by id",
  );
  return rows[(Math.floor(rows.length / 2) + index) % rows.length]!;
}

async function toCheckout(page: Page, product: Product, javaScriptEnabled: boolean): Promise<Locator> {
  await page.goto(`/product/${product.id}`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
  await open(page, "/checkout", javaScriptEnabled);
  return page.getByRole("form", { name: "Checkout form" });
}

async function fillBilling(form: Locator, email: string) {
  await form.getByLabel("Full Name").fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone").fill("(810) 555-0142");
  // By their accessible names, exactly: the installation block has an "Installation Address", "Installation City"…
  await form.getByRole("textbox", { name: "Address", exact: true }).fill("12 Saginaw St");
  await form.getByRole("textbox", { name: "City", exact: true }).fill("Flint");
  await form.getByRole("textbox", { name: "ZIP Code", exact: true }).fill("48502");
}

/** The order's own page, where a paid checkout goes. */
const PLACED = /\/order\/[A-Za-z0-9_-]{43}\?placed(#[\w-]+)?$/;

for (const [index, mode] of modes.entries()) {
  test.describe(`checkout's card entry, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("the card entry's fields and labels; the expiry typed '1229' is taken as 12/29 and the order is placed", async ({
      page,
    }) => {
      test.slow(); // the shop, the cart, the checkout and a captcha solved
      const visitor = await asNewVisitor(page);
      const form = await toCheckout(page, await productFor(index), mode.javaScriptEnabled);
      const payment = form.getByRole("group", { name: "Payment Information" });
      for (const label of [CARD_ENTRY.number, CARD_ENTRY.expiry, CARD_ENTRY.cvc])
        await expect(payment.getByLabel(label)).toBeVisible();
      await expect(form.getByText("CVV")).toHaveCount(0);
      await expect(payment.getByLabel(CARD_ENTRY.expiry)).toHaveAttribute("name", "expiry");
      await expect(payment.getByLabel(CARD_ENTRY.cvc)).toHaveAttribute("name", "cvv");

      await fillBilling(form, visitor.email);
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.approve);
      await typeExpiry(form, mode.javaScriptEnabled, "1229", "12/29");
      await form.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Place Order" }).click();
      await expect(page).toHaveURL(PLACED);
      const orders = await dbRows<{ status: string }>("select status from orders where email = $1", visitor.email);
      expect(orders).toEqual([{ status: "paid" }]);
    });

    test("a declined card says what to do; another card then pays without the captcha solved again", async ({
      page,
    }) => {
      test.slow(); // two payments, the captcha solved once
      const visitor = await asNewVisitor(page);
      const product = await productFor(index + 2);
      const form = await toCheckout(page, product, mode.javaScriptEnabled);
      await fillBilling(form, visitor.email);
      await typeCardNumber(form, mode.javaScriptEnabled, TEST_CARDS.decline);
      await typeExpiry(form, mode.javaScriptEnabled, "12/29", "12/29");
      await form.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      const submissionKey = await form.locator('input[name="submission_key"]').inputValue();
      await form.getByRole("button", { name: "Place Order" }).click();

      await expect(statusMessage(page)).toHaveText("Your card was declined. Try another card, or call your bank.");
      const again = page.getByRole("form", { name: "Checkout form" });
      await expect(again.getByLabel(CARD_ENTRY.number)).toHaveValue("");
      await expect(again.getByLabel(CARD_ENTRY.cvc)).toHaveValue("");
      await expect(again.getByLabel(CARD_ENTRY.expiry)).toHaveValue("12/29");
      expect(await dbRows("select id from orders where email = $1", visitor.email)).toEqual([]);

      await expectCaptchaKept(again, mode.javaScriptEnabled);
      await typeCardNumber(again, mode.javaScriptEnabled, TEST_CARDS.approve);
      await again.getByLabel(CARD_ENTRY.cvc).fill(TEST_CVCS.three);
      await again.getByRole("button", { name: "Place Order" }).click();
      await expect(page).toHaveURL(PLACED);
      const attempts = await dbRows<{ state: string; amount_cents: number }>(
        "select state, amount_cents from payments where idempotency_key = $1 order by id",
        `checkout:${submissionKey}`,
      );
      expect(attempts).toEqual([
        { state: "declined", amount_cents: product.price_cents },
        { state: "succeeded", amount_cents: product.price_cents },
      ]);
    });
  });
}
