import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, photo, solveCaptcha } from "./helpers";

/**
 * Issue 31 item 1: every form's refused post leads with an error summary (GOV.UK's pattern):
 * "There is a problem", the message, a link per field in error that puts focus in that field.
 * Without JavaScript the page opens at the summary (the post's fragment); with it the summary
 * takes focus. A refused page that lost the photos chosen says "Choose your photos again.".
 */
test.afterAll(closeE2eSql);

const FORMS = [
  { path: "/contact", name: "Contact form" },
  { path: "/request-quote?type=residential", name: "Residential quote request form" },
  { path: "/request-quote?type=commercial", name: "Commercial quote request form" },
  { path: "/request-service?type=commercial", name: "Commercial service request form" },
  { path: "/request-service?type=residential", name: "Residential service booking form" },
  { path: "/pay-invoice", name: "Invoice payment form" },
  { path: "/employment", name: "Employment application form" },
  { path: "/discount-signup-2025", name: "Discount sign-up form" },
  { path: "/checkout", name: "Checkout form", cart: true },
] as const;

/** The checkout shows its form only with something in the cart: a product with stock and no options. */
async function fillCart(page: Page) {
  const [product] = await dbRows<{ id: number }>(
    "select id from products where stock >= 20 and custom_fields = '[]'::jsonb order by id limit 1",
  );
  await page.goto(`/product/${product!.id}`);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/my-cart$/);
}

function summaryOf(page: Page): Locator {
  return page.locator(".error-summary");
}

/** Each link of the summary, followed: focus lands in the field it names (a widget's: in its group). */
async function followEveryLink(page: Page, summary: Locator) {
  const links = summary.getByRole("link");
  const count = await links.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const link = links.nth(i);
    const target = (await link.getAttribute("href"))!.slice(1);
    await link.click();
    const focused = await page.evaluate((id) => {
      const active = document.activeElement as HTMLElement | null;
      const named = document.getElementById(id);
      return {
        id: active?.id ?? "",
        tag: active?.tagName ?? "",
        // A calendar's date lives in a hidden input: focus goes to the calendar beside it.
        inGroup: Boolean(named && active && named.parentElement?.contains(active) && active !== document.body),
      };
    }, target);
    expect(focused.id === target || focused.inGroup, `link to #${target} focused ${focused.tag}#${focused.id}`).toBe(
      true,
    );
    await expect(page.locator(":focus")).toBeInViewport();
    await expectLabelInView(page, `link to #${target}`);
  }
}

/**
 * The focused field's label (its <label>, its group's legend, or what names it by
 * aria-labelledby) wholly inside the viewport, and not flush with its top edge (GOV.UK's pattern,
 * issue 38): with JavaScript the label is scrolled into view; without, forms.css's scroll-margin
 * leaves it above the field the fragment scrolled to.
 */
async function expectLabelInView(page: Page, what: string) {
  const seen = await page.evaluate(() => {
    const field = document.activeElement as HTMLElement | null;
    if (!field) return null;
    const named = field.getAttribute("aria-labelledby")?.split(" ")[0];
    const label =
      (field.id ? document.querySelector(`label[for="${CSS.escape(field.id)}"]`) : null) ??
      field.closest("fieldset")?.querySelector("legend") ??
      (named ? document.getElementById(named) : null);
    if (!label) return { text: "", top: -1, bottom: -1, height: innerHeight };
    const box = label.getBoundingClientRect();
    return { text: label.textContent?.trim() ?? "", top: box.top, bottom: box.bottom, height: innerHeight };
  });
  expect(seen, `${what}: something has focus`).not.toBeNull();
  expect(seen!.text, `${what}: the focused field has a label`).not.toBe("");
  expect(seen!.top, `${what}: "${seen!.text}" not above the top edge`).toBeGreaterThanOrEqual(4);
  expect(seen!.bottom, `${what}: "${seen!.text}" not below the bottom edge`).toBeLessThanOrEqual(seen!.height);
}

for (const mode of modes) {
  test.describe(`error summary, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    for (const form of FORMS) {
      test(`${form.name}: sent empty, the summary names each field and its links focus them`, async ({ page }) => {
        test.slow(); // eight forms' pages, each link followed
        await asNewVisitor(page);
        if ("cart" in form) await fillCart(page);
        await open(page, form.path, mode.javaScriptEnabled);
        const element = page.getByRole("form", { name: form.name });
        await element.locator("button.form-submit").click();

        const summary = summaryOf(page);
        await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
        await expect(summary).toContainText("Please correct the highlighted fields and send the form again.");
        // Without JavaScript the page opened at the summary; with it the summary took focus. Either way it has it.
        await expect(summary).toBeFocused();
        if (!mode.javaScriptEnabled) expect(new URL(page.url()).hash).toBe(`#${await summary.getAttribute("id")}`);
        // Each link's text is its field's own message, shown beside the field too.
        const first = summary.getByRole("link").first();
        const message = (await first.innerText()).trim();
        await expect(element.getByText(message, { exact: true }).first()).toBeVisible();
        await followEveryLink(page, summary);
      });
    }

    test("photos dropped by a refused post: the page says to choose them again", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, "/request-quote?type=residential", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Residential quote request form" });
      await form.getByLabel("First Name").fill("Ada");
      await form.getByLabel("Email").fill(visitor.email);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      const photos = form.getByLabel("Photos (optional)");
      // Without JavaScript four photos (one too many) reach the server; with it the browser refuses them first.
      await photos.setInputFiles(
        mode.javaScriptEnabled ? [photo("door.png")] : [photo("a.png"), photo("b.png"), photo("c.png"), photo("d.png")],
      );
      await form.locator("button.form-submit").click();
      const summary = summaryOf(page);
      await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
      if (mode.javaScriptEnabled) {
        // The browser refused the post: the photo is still chosen, nothing to choose again.
        await expect(summary.getByRole("link", { name: "Last Name is required." })).toBeVisible();
        await expect(page.getByText("Choose your photos again.")).toHaveCount(0);
        expect(await photos.evaluate((i: HTMLInputElement) => i.files?.length)).toBe(1);
      } else {
        const link = summary.getByRole("link", { name: "You can only upload up to 3 photos." });
        await expect(link).toBeVisible();
        await expect(form.getByText("You can only upload up to 3 photos. Choose your photos again.")).toBeVisible();
        await link.click();
        await expect(photos).toBeFocused();
      }
      expect(await dbRows("select id from quote_requests where email = $1", visitor.email)).toHaveLength(0);
    });
  });
}

for (const mode of modes) {
  test.describe(`error summary on a phone, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });

    test("each link of the booking form's summary leaves its field focused with its label in view", async ({
      page,
    }) => {
      test.slow(); // the longest form, each link followed
      await asNewVisitor(page);
      await open(page, "/request-service?type=residential", mode.javaScriptEnabled);
      const element = page.getByRole("form", { name: "Residential service booking form" });
      await element.locator("button.form-submit").click();
      const summary = summaryOf(page);
      await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
      // The summary the page opened at (or that took focus) is not flush with the top either.
      expect((await summary.boundingBox())!.y).toBeGreaterThanOrEqual(8);
      await followEveryLink(page, summary);
    });
  });
}

test.describe("error summary, JavaScript off, a refusal for another field", () => {
  test.use({ javaScriptEnabled: false });

  test("the photo chosen is listed as lost, last, and its link focuses the photo input", async ({ page }) => {
    await asNewVisitor(page);
    await open(page, "/request-quote?type=residential", false);
    const form = page.getByRole("form", { name: "Residential quote request form" });
    await form.getByLabel("Photos (optional)").setInputFiles([photo("driveway.png")]);
    await form.locator("button.form-submit").click();
    const summary = summaryOf(page);
    const links = summary.getByRole("link");
    await expect(links.last()).toHaveText("Choose your photos again.");
    await expect(form.getByText("Choose your photos again.", { exact: true })).toBeVisible();
    await links.last().click();
    await expect(form.getByLabel("Photos (optional)")).toBeFocused();
  });
});
