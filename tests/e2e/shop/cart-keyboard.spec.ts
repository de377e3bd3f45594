import { type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { closeE2eSql, e2eQuery } from "../support/db";

/**
 * The cart's 'Confirm Deletion' dialog with the keyboard only (issue 17 item
 * 8): it opens from the delete button with Enter, Tab and Shift+Tab never
 * leave it, Escape cancels (focus back on the delete button, nothing
 * removed), and Enter on 'Yes, Delete' removes the item.
 */
test.afterAll(closeE2eSql);
test.use({ viewport: { width: 1366, height: 900 } });

const focusInDialog = (page: Page) =>
  page.evaluate(
    () => Boolean(document.activeElement?.closest('[role="dialog"]')) && document.activeElement !== document.body,
  );

test("Tab and Shift+Tab stay in the dialog, Escape cancels, Enter on 'Yes, Delete' removes", async ({ page }) => {
  const products = await e2eQuery<{ id: number; name: string }>(
    "select id, name from products where stock > 0 order by id limit 2",
  );
  // The cart cookie goes to the page's context: the same visitor.
  for (const p of products)
    expect((await page.request.post("/api/store/cart/add", { data: { inventory_id: p.id } })).status()).toBe(200);
  await page.goto("/my-cart");
  await page.waitForLoadState("networkidle");

  const name = products[1]!.name;
  const remove = page.getByRole("button", { name: `Delete ${name}` });
  const itemId = (await remove.getAttribute("value"))!;
  const dialog = page.getByRole("dialog", { name: "Confirm Deletion" });

  await remove.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  expect(await focusInDialog(page)).toBe(true);

  // Round and round: focus never reaches the page behind.
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInDialog(page), `Tab ${i + 1}`).toBe(true);
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusInDialog(page), `Shift+Tab ${i + 1}`).toBe(true);
  }

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  expect(await e2eQuery("select id from cart_items where id = $1", [itemId])).toHaveLength(1);

  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  const yes = dialog.getByRole("button", { name: "Yes, Delete" });
  for (let i = 0; i < 4 && !(await yes.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(yes).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(dialog).toBeHidden();
  await expect(remove).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: "Your Shopping Cart" })).toBeFocused();
  await expect(page.getByRole("button", { name: `Delete ${products[0]!.name}` })).toBeVisible();
  expect(await e2eQuery("select id from cart_items where id = $1", [itemId])).toEqual([]);
});
