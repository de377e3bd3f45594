import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { company } from "../../../app/lib/company";

/** The accordion items (native <details>) of a section and their open state. */
async function openStates(accordion: Locator): Promise<boolean[]> {
  return accordion.locator("details").evaluateAll((els) => els.map((el) => (el as HTMLDetailsElement).open));
}

async function checkOneAtATime(page: Page, accordion: Locator) {
  const items = accordion.locator("details");
  const count = await items.count();
  expect(count).toBeGreaterThanOrEqual(4);
  const summary = (i: number) => items.nth(i).locator("summary");
  const closed = Array<boolean>(count).fill(false);
  expect(await openStates(accordion)).toEqual(closed);

  await summary(0).click();
  await expect(items.nth(0).locator(".accordion-panel")).toBeVisible();
  expect(await openStates(accordion)).toEqual(closed.map((_, i) => i === 0));

  // Opening another closes the first.
  await summary(2).click();
  await expect(items.nth(2).locator(".accordion-panel")).toBeVisible();
  await expect(items.nth(0).locator(".accordion-panel")).toBeHidden();
  expect(await openStates(accordion)).toEqual(closed.map((_, i) => i === 2));

  // Clicking the open one closes it.
  await summary(2).click();
  await expect(items.nth(2).locator(".accordion-panel")).toBeHidden();
  expect(await openStates(accordion)).toEqual(closed);

  // Keyboard works too.
  await summary(1).focus();
  await page.keyboard.press("Enter");
  expect(await openStates(accordion)).toEqual(closed.map((_, i) => i === 1));
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`accordions, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("careers: one opening open at a time, clicking the open one closes it", async ({ page }) => {
      await page.goto("/careers");
      const accordion = page.getByTestId("openings-accordion");
      await expect(accordion.locator("summary .accordion-title")).toHaveText([
        "Administrative Assistant",
        "Accounting and Bookkeeping",
        "Commercial Door Technician",
        "Sales Representative",
      ]);
      await checkOneAtATime(page, accordion);

      // The technician opening: pay and a prepared application e-mail.
      const tech = accordion.locator("details", { hasText: "Commercial Door Technician" });
      await tech.locator("summary").click();
      await expect(tech.getByText("$19-28 per hour plus a monthly bonus")).toBeVisible();
      const apply = tech.getByRole("link", { name: "Apply for Commercial Door Technician by e-mail" });
      const href = new URL((await apply.getAttribute("href"))!);
      expect(href.protocol).toBe("mailto:");
      expect(href.pathname).toBe(company.careersEmail);
      expect(href.searchParams.get("subject")).toBe("Commercial Door Technician");
      await expect(page.getByRole("main").getByRole("link", { name: company.careersEmail })).toBeVisible();
    });

    test("hollow metal doors: key benefits and an FAQ with one answer open at a time", async ({ page }) => {
      await page.goto("/commercial-hollow-metal-doors");
      await expect(page.getByRole("heading", { name: "Key Benefits" })).toBeVisible();
      await expect(page.locator("#benefits .feature-card")).toHaveCount(6);
      await checkOneAtATime(page, page.getByTestId("faq-accordion"));
    });
  });
}
