import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, fillContact, modes, open, statusMessage } from "./helpers";

/**
 * The spam check (issue 38 item 3, docs/decisions/066): the ALTCHA widget loads when the visitor
 * comes near it or first touches the form, and it solves itself once the visitor has started the
 * form (ALTCHA's `auto` "onfocus"), so nobody who overlooks it is refused. When it is missing or
 * wrong after all, the refusal reads "Please complete the spam check." and the error summary's
 * link to it lands on it: the widget's checkbox with JavaScript, the sum's answer without.
 */
test.afterAll(closeE2eSql);

const PATH = "/request-service?type=residential";

function form(page: Page) {
  return page.getByRole("form", { name: "Residential service booking form" });
}

function token(scope: Locator) {
  return scope.locator('input[name="recaptcha_token"]');
}

test.describe("a phone, JavaScript on", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("not loaded until the visitor scrolls near it; there, it waits for the visitor to start the form, then ticks itself", async ({
    page,
  }) => {
    await asNewVisitor(page);
    await page.goto(PATH);
    const booking = form(page);
    // Hydrated (the calendar is React's), yet the widget far below has not been loaded.
    await expect(booking.getByRole("group", { name: "Service Date" })).toBeVisible();
    // Nothing left to fetch: a widget loaded with the page would be there by now.
    await page.waitForLoadState("networkidle");
    await expect(booking.locator("altcha-widget")).toHaveCount(0);
    await expect(booking.locator(".form-captcha-slot")).toHaveText("");

    const spamCheck = booking.locator(".form-captcha");
    const heightBefore = (await spamCheck.boundingBox())!.height;
    await spamCheck.scrollIntoViewIfNeeded();
    const box = booking.getByRole("checkbox", { name: "I'm not a robot" });
    await expect(box).toBeVisible({ timeout: 15_000 });
    // It takes the room its slot held: nothing below it moves as it arrives.
    expect((await spamCheck.boundingBox())!.height).toBeCloseTo(heightBefore, 0);
    // Scrolled past, not started: it asks nothing of the server yet.
    await page.waitForLoadState("networkidle");
    await expect(booking.locator("altcha-widget [data-state]")).toHaveAttribute("data-state", "unverified");
    await expect(token(booking)).toHaveValue("");

    // The visitor starts the form: it solves itself, nothing pressed.
    await booking.getByRole("textbox", { name: "Name", exact: true }).focus();
    await expect(token(booking)).toHaveValue(/.{20,}/, { timeout: 20_000 });
    await expect(booking.getByRole("checkbox", { name: "Verified" })).toBeChecked();
  });

  test("a first focus in the form loads it, before the visitor has scrolled there, and it ticks itself", async ({
    page,
  }) => {
    await asNewVisitor(page);
    await page.goto(PATH);
    const booking = form(page);
    await expect(booking.locator("altcha-widget")).toHaveCount(0);
    await booking.getByRole("textbox", { name: "Name", exact: true }).focus();
    await expect(booking.locator("altcha-widget")).toHaveCount(1, { timeout: 15_000 });
    await expect(token(booking)).toHaveValue(/.{20,}/, { timeout: 20_000 });
    // Still off-screen: nothing scrolled the page to it.
    await expect(booking.locator("altcha-widget input[type=checkbox]")).not.toBeInViewport();
  });
});

for (const mode of modes) {
  test.describe(`the spam check refused, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 390, height: 844 } });

    test("'Please complete the spam check.' in the summary, linked to the check, and said beside it; nothing sent", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      // With JavaScript: its challenge cannot be fetched, so the check the visitor started fails.
      if (mode.javaScriptEnabled) await page.route("**/api/captcha/challenge**", (route) => route.abort());
      await open(page, "/contact", mode.javaScriptEnabled);
      const contact = page.getByRole("form", { name: "Contact form" });
      await fillContact(contact, {
        first: "Katherine",
        last: "Johnson",
        email: visitor.email,
        phone: "(810) 555-0170",
        details: `A new garage door opener. ${visitor.tag}`,
      });
      await contact.getByRole("button", { name: "Submit" }).click();

      const summary = page.locator(".error-summary");
      await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
      const link = summary.getByRole("link", { name: "Please complete the spam check." });
      await expect(link).toBeVisible();
      // Said once in the summary: its link, no paragraph repeating it.
      await expect(summary.getByText("Please complete the spam check.")).toHaveCount(1);
      await expect(summary).not.toContainText("CAPTCHA");
      await expect(statusMessage(page)).toHaveText("Please complete the spam check.");
      const place = contact.locator(".form-captcha");
      await expect(place.locator(".form-field-error")).toHaveText("Please complete the spam check.");

      await page.evaluate(() => window.scrollTo(0, 0));
      await link.click();
      if (mode.javaScriptEnabled) {
        // The widget's checkbox has focus; the check is shown whole, its error first.
        await expect(contact.locator("altcha-widget input[type=checkbox]")).toBeFocused();
      } else {
        await expect(contact.locator('input[name="captcha_answer"]')).toBeFocused();
        await expect(contact.locator("label", { hasText: /What is \d \+ \d\?/ })).toBeInViewport({ ratio: 1 });
      }
      await expect(place.locator(".form-field-error")).toBeInViewport({ ratio: 1 });
      expect(await dbRows("select id from contact_submissions where email = $1", visitor.email)).toHaveLength(0);
    });
  });
}
