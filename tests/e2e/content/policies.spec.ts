import { type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { changePolicy } from "../../../app/booking/policy";
import { TAX_NOTE } from "../../../app/shop/pricing";
import { closeE2eSql, e2eQuery } from "../support/db";
import { modes, open } from "../forms/helpers";

/**
 * Policies (issue 38 item 7, DECISIONS 36 and 38), with JavaScript on and off: /privacy and
 * /terms reached from the footer of any page and from beside the pay button of every paid form
 * (the checkout, the residential booking, the invoice), and listed in /sitemap.xml; the privacy
 * notice names what the site keeps and for how long, its cookies and how to ask for a copy; the
 * terms state the tax, the booking's change rules as the server applies them, and returns; the
 * cart and the checkout say the total includes installation and sales tax; the promo page's copy
 * names no year.
 */
test.afterAll(closeE2eSql);

/** The policy line beside a paid form's button: both links, opening in a new tab. */
async function expectPolicyNote(page: Page, scope = page.locator("main")) {
  const note = scope.getByTestId("policy-note");
  await expect(note).toBeVisible();
  const terms = note.getByRole("link", { name: /terms of sale and service/ });
  const privacy = note.getByRole("link", { name: /privacy notice/ });
  await expect(terms).toHaveAttribute("href", "/terms");
  await expect(privacy).toHaveAttribute("href", "/privacy");
  await expect(terms).toHaveAttribute("target", "_blank");
  // Near the pay button: the next thing after the note is the form's submit button.
  const next = await note.evaluate((el) => {
    let sibling = el.nextElementSibling;
    while (sibling && sibling.tagName !== "BUTTON" && !sibling.querySelector("button"))
      sibling = sibling.nextElementSibling;
    return sibling?.tagName === "BUTTON" ? sibling.textContent : sibling?.querySelector("button")?.textContent;
  });
  return { terms, privacy, next };
}

for (const mode of modes) {
  test.describe(`policies, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("/privacy and /terms are in every page's footer and open with their own heading", async ({ page }) => {
      for (const [link, path, heading] of [
        ["Privacy Notice", "/privacy", "Privacy Notice"],
        ["Terms of Sale and Service", "/terms", "Terms of Sale and Service"],
      ] as const) {
        await page.goto("/shop");
        const footer = page.getByRole("navigation", { name: "Site map" });
        await footer.getByRole("link", { name: link, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expect(page).toHaveTitle(new RegExp(`^${heading} \\|`));
      }
    });

    test("the checkout, the residential booking and the invoice link both beside the pay button; the cart and checkout say what the total includes", async ({
      page,
      context,
    }) => {
      const [product] = await e2eQuery<{ id: number }>(
        "select id from products where stock >= 20 and custom_fields = '[]'::jsonb order by id desc limit 1",
      );
      await page.goto(`/product/${product!.id}`);
      await page.getByRole("button", { name: "Add to Cart" }).click();
      await expect(page).toHaveURL(/\/my-cart$/);
      await expect(page.getByTestId("tax-note")).toHaveText(`${TAX_NOTE} How we price`);
      await expect(page.getByText(/includes installation and sales tax/)).toBeVisible();

      await open(page, "/checkout", mode.javaScriptEnabled);
      await expect(page.getByTestId("tax-note")).toContainText("The total includes installation and sales tax");
      const checkout = await expectPolicyNote(page, page.getByRole("form", { name: "Checkout form" }));
      expect(checkout.next).toBe("Place Order");
      // It opens in a new tab, leaving the half-filled form where it is.
      const [terms] = await Promise.all([context.waitForEvent("page"), checkout.terms.click()]);
      await terms.waitForLoadState();
      await expect(terms.getByRole("heading", { level: 1, name: "Terms of Sale and Service" })).toBeVisible();
      await terms.close();
      await expect(page).toHaveURL(/\/checkout$/);

      await open(page, "/request-service?type=residential", mode.javaScriptEnabled);
      const booking = await expectPolicyNote(
        page,
        page.getByRole("form", { name: "Residential service booking form" }),
      );
      expect(booking.next).toBe("Book and Pay");
      const [privacy] = await Promise.all([context.waitForEvent("page"), booking.privacy.click()]);
      await privacy.waitForLoadState();
      await expect(privacy.getByRole("heading", { level: 1, name: "Privacy Notice" })).toBeVisible();
      await privacy.close();

      await open(page, "/pay-invoice", mode.javaScriptEnabled);
      const invoice = await expectPolicyNote(page, page.getByRole("form", { name: "Invoice payment form" }));
      expect(invoice.next).toBe("Pay Invoice");
    });
  });
}

test("/sitemap.xml lists /privacy and /terms", async ({ request }) => {
  const xml = await (await request.get("/sitemap.xml")).text();
  expect(xml).toMatch(/<loc>http:\/\/localhost:\d+\/privacy<\/loc>/);
  expect(xml).toMatch(/<loc>http:\/\/localhost:\d+\/terms<\/loc>/);
});

test("the privacy notice says what is kept, for how long, the cookies and how to ask; the terms the tax, the change rules and returns", async ({
  page,
}) => {
  await page.goto("/privacy");
  const privacy = page.locator("main");
  for (const text of [
    "Employment application (/employment)",
    "Is encrypted (AES-256) before it is stored",
    "is cleared 30 days after it is sent",
    "A cart is deleted 91 days after it was started",
    "kept so that the next page can show it, is deleted after an hour",
    "we never store them",
  ])
    await expect(privacy.getByText(text, { exact: false }).first(), text).toBeVisible();
  for (const cookie of ["cart", "color-scheme", "recent_payment", "posted_answer"])
    await expect(privacy.getByRole("heading", { level: 3, name: cookie, exact: true })).toBeVisible();
  await expect(privacy.getByRole("heading", { level: 2, name: "A Copy of Your Data, or Its Deletion" })).toBeVisible();
  await expect(privacy.getByRole("link", { name: "info@example.com" }).first()).toHaveAttribute(
    "href",
    "mailto:info@example.com",
  );

  await page.goto("/terms");
  const terms = page.locator("main");
  await expect(terms.getByText(TAX_NOTE, { exact: false })).toBeVisible();
  await expect(terms.getByText(changePolicy(24), { exact: false })).toBeVisible();
  await expect(terms.getByText(/unopened can be returned within 30 days of delivery/)).toBeVisible();
  await expect(terms.getByText(/Custom-configured doors and windows .* cannot be returned/)).toBeVisible();
  await expect(terms.getByText(/Warranty claims are made by phone/)).toBeVisible();
  // The cart's "How we price" lands on this section.
  await page.goto("/terms#prices");
  await expect(page.getByRole("heading", { level: 2, name: "Prices and Sales Tax" })).toBeInViewport();
});

test("the promo page's copy names no year; its address stays SPEC's", async ({ page }) => {
  await page.goto("/discount-signup-2025");
  await expect(page.getByRole("heading", { level: 1, name: "Discount Sign-Up" })).toBeVisible();
  expect(await page.title()).not.toMatch(/\b(19|20)\d\d\b/);
  expect(await page.locator('meta[name="description"]').getAttribute("content")).not.toMatch(/\b(19|20)\d\d\b/);
  expect(await page.locator("main").innerText()).not.toMatch(/\b(19|20)\d\d\b|this year/i);
});
