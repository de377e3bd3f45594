import { type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { asNewVisitor } from "./helpers";

/**
 * The ALTCHA widget loads when the visitor comes near it (docs/decisions/066): on a phone the
 * booking form's spam check is a long scroll below the first field, so the page that has just
 * hydrated has not loaded it; scrolling to it, or a first focus in the form, does.
 */

const PATH = "/request-service?type=residential";

function form(page: Page) {
  return page.getByRole("form", { name: "Residential service booking form" });
}

test.describe("a phone, JavaScript on", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the spam check is not loaded until the visitor scrolls near it, then it is there to tick", async ({ page }) => {
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
    await booking.locator("altcha-widget label", { hasText: "I'm not a robot" }).click();
    await expect(booking.locator('input[name="recaptcha_token"]')).toHaveValue(/.{20,}/, { timeout: 20_000 });
  });

  test("a first focus in the form loads it, before the visitor has scrolled there", async ({ page }) => {
    await asNewVisitor(page);
    await page.goto(PATH);
    const booking = form(page);
    await expect(booking.locator("altcha-widget")).toHaveCount(0);
    await booking.getByRole("textbox", { name: "Name", exact: true }).focus();
    await expect(booking.locator("altcha-widget")).toHaveCount(1, { timeout: 15_000 });
    // Still off-screen: nothing scrolled the page to it.
    await expect(booking.getByRole("checkbox", { name: "I'm not a robot" })).not.toBeInViewport();
  });
});
