import AxeBuilder from "@axe-core/playwright";
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { formatUsd } from "../../../app/payments/money";
import { cardNumberForms, TEST_CARDS, TEST_CVCS } from "../support/cards";
import { closeE2eSql } from "../support/db";
import { expectNoCardInFields } from "../support/card-entry";
import { asNewVisitor, dbRows, mailTo, modes, open, solveCaptcha } from "../forms/helpers";

/**
 * Where to install and the order's page (issue 30 items 3, 4 and 7), with JavaScript on and off:
 * a checkout with an installation address of its own (the box unchecked shows the block), the
 * order's page after paying (its reference, the item, both addresses, the status, what happens
 * next; private, no Referer, noindex), Back after paying, the page opened again from the link in
 * the buyer's mail in a browser that never saw the checkout, another token's 404, and
 * /order-confirmation for whoever has no order there. Each test is a new visitor.
 */
test.afterAll(closeE2eSql);

type Product = { id: number; name: string; price_cents: number };

/** A product with plenty of stock and no options, apart from the ones checkout.spec.ts takes. */
async function productFor(index: number): Promise<Product> {
  const rows = await dbRows<Product>(
    "select id, name, price_cents from products where stock >= 20 and custom_fields = '[]'::jsonb order by id desc",
  );
  return rows[index % rows.length]!;
}

const TOKEN_URL = /\/order\/([A-Za-z0-9_-]{43})\?placed(#[\w-]+)?$/;

async function fillBilling(form: Locator, email: string) {
  await form.getByLabel("Full Name").fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone").fill("(810) 555-0142");
  // By their accessible names, exactly: the installation block has an "Installation Address", "Installation City"…
  await form.getByRole("textbox", { name: "Address", exact: true }).fill("12 Saginaw St");
  await form.getByRole("textbox", { name: "City", exact: true }).fill("Flint");
  await form.getByRole("textbox", { name: "ZIP Code", exact: true }).fill("48502");
}

async function fillCard(form: Locator, javaScriptEnabled: boolean) {
  const number = form.getByLabel("Card Number");
  const expiry = form.getByLabel("Expiry (MM/YY)");
  if (javaScriptEnabled) {
    await number.pressSequentially(cardNumberForms(TEST_CARDS.approve).digits);
    await expiry.pressSequentially("0430");
    await expect(expiry).toHaveValue("04/30");
  } else {
    await number.fill(TEST_CARDS.approve);
    await expiry.fill("04/30");
  }
  await form.getByRole("textbox", { name: "CVC", exact: true }).fill(TEST_CVCS.three);
}

/** The mail's text as a person reads it (quoted-printable: soft breaks and =XX undone). */
const readable = (eml: string) =>
  eml.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

for (const [index, mode] of modes.entries()) {
  test.describe(`the order's page, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("a separate installation address → the order's page after paying; Back; the mail's link opens it elsewhere; another token is a 404", async ({
      page,
      browser,
    }) => {
      test.slow();
      const visitor = await asNewVisitor(page);
      const product = await productFor(index);
      await page.goto(`/product/${product.id}`);
      if (mode.javaScriptEnabled) await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: "Add to Cart" }).click();
      await expect(page).toHaveURL(/\/my-cart$/);
      await open(page, "/checkout", mode.javaScriptEnabled);

      const form = page.getByRole("form", { name: "Checkout form" });
      await fillBilling(form, visitor.email);
      // Checked by default: the block is in the page but hidden; unchecked, it shows.
      const same = form.getByRole("checkbox", { name: "Same as billing address" });
      await expect(same).toBeChecked();
      const block = form.getByLabel("Installation Address");
      await expect(block).toBeHidden();
      await same.uncheck();
      await expect(block).toBeVisible();
      await block.fill("77 Lakeshore Dr");
      await form.getByLabel("Installation City").fill("Port Huron");
      await expect(form.getByLabel("Installation State")).toHaveValue("MI");
      await form.getByLabel("Installation ZIP Code").fill("48060");
      await fillCard(form, mode.javaScriptEnabled);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Place Order" }).click();

      // The order's own page is the receipt: SPEC's success heading, the reference, what was bought, where.
      await expect(page).toHaveURL(TOKEN_URL);
      const token = TOKEN_URL.exec(page.url())![1]!;
      await expect(page.getByRole("heading", { level: 1, name: "Your Order Was Successful!" })).toBeVisible();
      const [order] = await dbRows<{
        reference: string;
        total_cents: number;
        installation_same_as_billing: boolean;
        installation_address: string;
        installation_zip: string;
        order_status: string;
      }>(
        `select reference, total_cents, installation_same_as_billing, installation_address, installation_zip, order_status
           from orders where email = $1`,
        visitor.email,
      );
      expect(order).toEqual({
        reference: expect.stringMatching(/^DO-[0-9A-Z]{4}-[0-9A-Z]{2}$/),
        total_cents: product.price_cents,
        installation_same_as_billing: false,
        installation_address: "77 Lakeshore Dr",
        installation_zip: "48060",
        order_status: "received",
      });
      await expect(page.getByTestId("order-reference")).toHaveText(order!.reference);
      await expect(page.getByRole("list", { name: "Items" }).getByRole("listitem")).toHaveText([
        `${product.name}1 × ${formatUsd(product.price_cents)}${formatUsd(product.price_cents)}`,
      ]);
      await expect(page.getByTestId("order-lines-total")).toHaveText(formatUsd(product.price_cents));
      await expect(page.getByTestId("order-installation")).toHaveText("77 Lakeshore DrPort Huron, MI 48060");
      await expect(page.getByTestId("order-billing")).toHaveText("Grace Hopper12 Saginaw StFlint, MI 48502");
      await expect(page.getByTestId("order-status")).toHaveText("Received");
      await expect(page.getByTestId("order-next")).toContainText(
        "A service representative will call you within two business days to schedule the installation.",
      );
      // One "what happens next" (issue 38 item 7), and what the total includes (DECISIONS 36).
      await expect(page.getByRole("heading", { name: "What happens next" })).toHaveCount(1);
      await expect(page.getByText(/within two business days/)).toHaveCount(1);
      await expect(page.getByTestId("tax-note")).toContainText("The total includes installation and sales tax");
      await expect(page.getByText(`${formatUsd(product.price_cents)} charged to Visa ending in 4242.`)).toBeVisible();

      // Back after paying never shows an empty form inviting a second payment. With JavaScript the
      // order's page took the checkout's place in the history; without, the checkout leads with its link.
      await page.goBack();
      if (mode.javaScriptEnabled) await expect(page).toHaveURL(/\/my-cart$/);
      else {
        await expect(page).toHaveURL(/\/checkout$/);
        await expect(page.getByText("You paid with this form a moment ago.")).toBeVisible();
        // Nor what was typed before paying, put back by the browser (issue 38 item 4).
        await expectNoCardInFields(page, { cards: [TEST_CARDS.approve], cvc: TEST_CVCS.three });
        await page.getByRole("link", { name: "See your order" }).click();
        await expect(page).toHaveURL(TOKEN_URL);
      }

      // The buyer's mail leads with the reference, the item, the amounts, the card, the addresses, the link.
      const mail = readable((await mailTo(visitor.email)).eml);
      for (const piece of [
        "Your order is placed",
        `Order reference: ${order!.reference}`,
        `${product.name}: ${formatUsd(product.price_cents)}`,
        "Paid: ",
        "Installation address: 77 Lakeshore Dr, Port Huron, MI 48060",
        "Billing address: 12 Saginaw St, Flint, MI 48502",
        "A service representative will call you within two business days to schedule the installation.",
        `Total: ${formatUsd(product.price_cents)} (includes installation and sales tax)`,
      ])
        expect(mail, piece).toContain(piece);
      const link = /https?:\/\/[^\s"<>]+\/order\/([A-Za-z0-9_-]{43})/.exec(mail);
      expect(link?.[1], "the order's link in the buyer's mail").toBe(token);

      // Opened from the mail in a browser that never saw the checkout (no cart cookie): the token is the key.
      const context = await browser.newContext({ javaScriptEnabled: mode.javaScriptEnabled });
      const elsewhere = await context.newPage();
      const response = await elsewhere.goto(`/order/${token}`);
      expect(response!.status()).toBe(200);
      // Every answer under /order/ (issue 38 item 8: tests/e2e/quality/secret-links.spec.ts).
      expect(response!.headers()["cache-control"]).toBe("no-store");
      expect(response!.headers()["referrer-policy"]).toBe("no-referrer");
      expect(response!.headers()["x-robots-tag"]).toBe("noindex");
      await expect(elsewhere.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(elsewhere.getByRole("heading", { level: 1, name: "Your order" })).toBeVisible();
      await expect(elsewhere.getByTestId("order-reference")).toHaveText(order!.reference);
      await expect(elsewhere.getByTestId("order-installation")).toHaveText("77 Lakeshore DrPort Huron, MI 48060");
      if (mode.javaScriptEnabled) await expectNoAxeViolations(elsewhere);

      // Staff schedule it in Studio: the page says so.
      await dbRows("update orders set order_status = 'scheduled' where email = $1", visitor.email);
      await elsewhere.reload();
      await expect(elsewhere.getByTestId("order-status")).toHaveText("Installation scheduled");

      // Another token, or one that is not a token: the site's 404.
      const other = token.replace(/^./, (c) => (c === "A" ? "B" : "A"));
      for (const path of [`/order/${other}`, "/order/1"]) {
        const missing = await elsewhere.goto(path);
        expect(missing!.status(), path).toBe(404);
        expect(missing!.headers()["cache-control"], path).toBe("no-store");
        expect(missing!.headers()["referrer-policy"], path).toBe("no-referrer");
        await expect(elsewhere.getByTestId("order-reference")).toHaveCount(0);
      }
      // /order-confirmation knows this buyer's order by its cart only: to this browser, 'N/A' under a neutral heading.
      await elsewhere.goto("/order-confirmation?order=1");
      await expect(elsewhere.getByRole("heading", { level: 1, name: "No order to show" })).toBeVisible();
      await expect(elsewhere.getByTestId("order-id")).toHaveText("N/A");
      await expect(elsewhere.getByTestId("order-total")).toHaveText("N/A");
      await context.close();
    });
  });
}
