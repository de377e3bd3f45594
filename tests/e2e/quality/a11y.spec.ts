import AxeBuilder from "@axe-core/playwright";
import { type Page } from "@playwright/test";
import { expect, runsScripts, test } from "../support/test";
import { siteMap } from "../../../app/shell/navigation";
import { addDays, pickServiceDay, serviceSaturday, spamCheckShown, weekday } from "../forms/helpers";

// Every route of the site map, in light and dark mode, with JavaScript on: 0 violations.
const routes = [...new Set(siteMap.flatMap((c) => c.links.map((l) => l.to)))];

async function expectNoViolations(page: Page, scheme: "light" | "dark" | "auto"): Promise<void> {
  // A page that runs no script keeps the server's "auto", drawn in the system's scheme by CSS.
  const attribute = (await runsScripts(page)) ? scheme : "auto";
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", attribute);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  // Where (three at most), and why for the first: a contrast's colours and ratio.
  const summary = results.violations.map((v) =>
    [
      `${v.id}: ${v.help}`,
      ...v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
      v.nodes[0]?.failureSummary ?? "",
    ].join("\n  "),
  );
  expect(summary, summary.join("\n")).toEqual([]);
}

const RESIDENTIAL = "/request-service?type=residential";

for (const scheme of ["light", "dark"] as const) {
  test.describe(`accessibility (${scheme})`, () => {
    test.use({ colorScheme: scheme, reducedMotion: "reduce" });
    for (const route of routes) {
      test(`${route} has no axe violations`, async ({ page }) => {
        await page.goto(route);
        await expectNoViolations(page, scheme);
      });
    }

    // Reached by the checkout's redirect only, so not in the site map: with no order of this visitor's, its 'N/A' state.
    test("/order-confirmation has no axe violations", async ({ page }) => {
      await page.goto("/order-confirmation?order=1");
      await expect(page.getByRole("heading", { name: "No order to show" })).toBeVisible();
      await expectNoViolations(page, scheme);
    });

    // The paid forms (issue 16) as JavaScript makes them, which the site map's pass may check before hydration:
    // the card number's mask, and the booking calendar through its states.
    test("/pay-invoice once hydrated has no axe violations", async ({ page }) => {
      await page.goto("/pay-invoice");
      await spamCheckShown(page);
      await expectNoViolations(page, scheme);
    });

    test(`${RESIDENTIAL}: the calendar, a day's slots, an empty booking's errors`, async ({ page }) => {
      // Three axe passes over the booking page (its calendar alone is some 120 day buttons) took 26–37 s
      // on CI's two cores with two workers: more than the default 30 s, for the audit, not the page.
      test.setTimeout(90_000);
      await page.goto(RESIDENTIAL);
      const form = page.getByRole("form", { name: "Residential service booking form" });
      await expect(page.getByRole("group", { name: "Service Date" })).toBeVisible({ timeout: 15_000 });
      await expectNoViolations(page, scheme);

      // A weekday (no bookings of the other specs there): its slots, each with a price and its places, and the total.
      const day = [1, 2, 3].map((n) => addDays(serviceSaturday(9), n)).find((d) => weekday(d) >= 1 && weekday(d) <= 5)!;
      await pickServiceDay(page, day);
      await form.getByRole("radio", { name: "Evening (After 4 PM)" }).check();
      await expect(form.getByText("Total: $159.95")).toBeVisible();
      await expectNoViolations(page, scheme);

      await page.goto(RESIDENTIAL);
      await expect(page.getByRole("group", { name: "Service Date" })).toBeVisible({ timeout: 15_000 });
      await form.getByRole("button", { name: "Book and Pay" }).click();
      await expect(form.getByText("Please choose a service time.")).toBeVisible();
      await expectNoViolations(page, scheme);
    });
  });
}

/**
 * axe runs as a script, which a page without JavaScript does not run: the
 * page a browser without JavaScript showed is given to one with JavaScript
 * as it was, less its scripts and with its <noscript> content shown (the
 * sum captcha). Without scripts no colour scheme is chosen: the server renders "auto", which
 * follows the system's (light in this browser context), as CSS alone (decision 062).
 */
test.describe("accessibility without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test(`${RESIDENTIAL}: the date input, the slot select and the price after Show price`, async ({ page, browser }) => {
    test.setTimeout(90_000); // a post, a second browser context and axe over the booking page (as its other axe tests)
    await page.goto(RESIDENTIAL);
    const form = page.getByRole("form", { name: "Residential service booking form" });
    await form.getByLabel("Service Date").fill(serviceSaturday(9));
    await form.getByRole("button", { name: "Show price" }).click();
    await expect(form.getByText("Price: $159.00")).toBeVisible();
    const shown = (await page.content())
      .replace(/<script\b[\s\S]*?<\/script>/g, "")
      .replaceAll("<noscript>", "<div>")
      .replaceAll("</noscript>", "</div>");

    const context = await browser.newContext({ javaScriptEnabled: true, reducedMotion: "reduce" });
    const withAxe = await context.newPage();
    const url = page.url().replace(/#.*$/, ""); // the answer's address points at the form's status
    await withAxe.route(url, (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: shown }));
    await withAxe.goto(url);
    await expect(withAxe.getByText(/What is \d \+ \d\?/)).toBeVisible();
    await expect(withAxe.getByText("Price: $159.00")).toBeVisible();
    await expectNoViolations(withAxe, "auto");
    await context.close();
  });
});
