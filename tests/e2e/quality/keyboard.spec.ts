import { expect, runsScripts, test } from "../support/test";

test.describe("keyboard only", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("the desktop menus open, move and close with the keyboard", async ({ page }) => {
    await page.goto("/contact"); // a page with a form runs the app, which drives the menus
    expect(await runsScripts(page)).toBe(true);
    // Tab from the top of the page: skip link first.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();

    const trigger = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Commercial" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Sectional Garage Doors" }).first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await expect(trigger).toBeFocused();

    // Leaving the menu with Tab closes it.
    await page.keyboard.press("Enter");
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    for (let i = 0; i < 9; i++) await page.keyboard.press("Tab");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");

    // Enter on a focused menu link navigates.
    await trigger.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/commercial-sectional-garage-doors$/);
  });

  test("on a page without scripts the menus open on focus and their links are reachable", async ({ page }) => {
    await page.goto("/");
    expect(await runsScripts(page)).toBe(false);
    const trigger = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Commercial" });
    const list = page.getByRole("navigation", { name: "Main" }).getByRole("list", { name: "Commercial" });
    await expect(list).toBeHidden();
    await trigger.focus();
    await expect(list).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Sectional Garage Doors" }).first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/commercial-sectional-garage-doors$/);
  });

  test("the skip link moves focus to the main content", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });
});

test.describe("keyboard only, small screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the mobile panel opens, its groups expand and it closes with Escape", async ({ page }) => {
    await page.goto("/contact");
    expect(await runsScripts(page)).toBe(true);
    const toggle = page.locator(".mobile-menu-toggle");
    await toggle.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeVisible();
    await page.keyboard.press("Tab"); // Home
    await page.keyboard.press("Tab"); // Residential Products
    await expect(panel.locator("summary", { hasText: "Residential Products" })).toBeFocused();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link", { name: "Schedule Service" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test("on a page without scripts the mobile panel opens, its groups expand and its toggle closes it", async ({
    page,
  }) => {
    await page.goto("/");
    expect(await runsScripts(page)).toBe(false);
    const toggle = page.locator(".mobile-menu-toggle");
    await toggle.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeVisible();
    const group = panel.locator("summary", { hasText: "Residential Products" });
    await group.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link", { name: "Schedule Service" })).toBeFocused();
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(panel).toBeHidden();
  });
});
