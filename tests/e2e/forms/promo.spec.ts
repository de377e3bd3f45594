import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

for (const mode of modes) {
  test.describe(`discount sign-up, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("a missing product is flagged, then the sign-up is stored and the form cleared", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, "/discount-signup-2025", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Discount sign-up form" });
      await form.getByLabel("First Name").fill("Katherine");
      await form.getByLabel("Last Name").fill("Johnson");
      await form.getByLabel("Email").fill(visitor.email);
      await form.getByLabel("Phone").fill("(810) 555-0133");
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(form.getByText("Please choose a product.")).toBeVisible();
      await expect(form.getByLabel("Last Name")).toHaveValue("Johnson");

      await form.getByLabel("Which product is your project about?").selectOption("Vinyl Siding & Decorative Stone");
      if (!mode.javaScriptEnabled) await solveCaptcha(page, false, form);
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(statusMessage(page)).toHaveText("Your message has been sent!");
      await expect(form.getByLabel("Email")).toHaveValue("");

      const rows = await dbRows<{ product: string; client_ip: string }>(
        "select product, client_ip from promo_signups where email = $1",
        visitor.email,
      );
      expect(rows).toEqual([{ product: "Vinyl Siding & Decorative Stone", client_ip: visitor.ip }]);
    });
  });
}
