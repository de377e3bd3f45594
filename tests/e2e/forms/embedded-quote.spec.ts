import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

const SUCCESS = "Submitted successfully! A representative will reach out within 48 hours.";

// The simple quote form (DECISIONS 9) embedded on product pages, posting to its host page.
for (const mode of modes) {
  test.describe(`simple quote form on a product page, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    const cases = [
      { path: "/residential-patio-doors", type: "Residential", option: "Patio Door" },
      { path: "/commercial-rolling-steel-doors", type: "Commercial", option: "Rolling Steel Doors" },
    ] as const;
    const { path, type, option } = cases[mode.javaScriptEnabled ? 0 : 1];

    test(`${type} quote from ${path}: errors keep values, then it is stored with its source`, async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, path, mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: `${type} quote request form` });
      await expect(form).toBeVisible();
      // The simple form has no photos, business name or existing-customer question.
      await expect(form.getByLabel("Business Name")).toHaveCount(0);
      await expect(form.locator('input[type="file"]')).toHaveCount(0);
      await expect(form.locator('[name="existing_customer"]')).toHaveCount(0);

      await form.getByLabel("First Name").fill("Ada");
      await form.getByLabel("Last Name").fill("Lovelace");
      await form.getByLabel("Email").fill(visitor.email);
      // Phone and ZIP left empty: refused, the rest kept.
      await form.getByLabel(option).check();
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(form.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
      await expect(page).toHaveURL(new RegExp(`${path}(#[\\w-]+)?$`));
      await expect(form.getByLabel("First Name")).toHaveValue("Ada");
      await expect(form.getByLabel("Email")).toHaveValue(visitor.email);
      await expect(form.getByLabel(option)).toBeChecked();
      expect(await dbRows("select id from quote_requests where email = $1", visitor.email)).toHaveLength(0);

      await form.getByLabel("Phone").fill("(517) 555-0177");
      await form.getByLabel("ZIP Code").fill("48912");
      await form.getByLabel("Preferred contact method").selectOption("Email");
      await form.getByLabel("When would you like to start?").selectOption("1 - 2 Months");
      await form.getByLabel("How would you like to meet?").selectOption("Showroom");
      await form.getByRole("radiogroup", { name: "Are you interested in financing?" }).getByLabel("Yes").check();
      await form.getByLabel("Tell us about your project").fill(`From the product page ${visitor.tag}`);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Submit" }).click();

      await expect(statusMessage(page)).toHaveText(SUCCESS);
      await expect(form.getByLabel("First Name")).toHaveValue("");
      const rows = await dbRows<{
        source: string;
        quote_type: string;
        quote_for: string[];
        client_ip: string;
        page: string;
      }>("select source, quote_type, quote_for, client_ip, page from quote_requests where email = $1", visitor.email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        source: "simple",
        quote_type: type,
        quote_for: [option],
        client_ip: visitor.ip,
        page: path,
      });
    });
  });
}

test("a content page without a form refuses a POST", async ({ request }) => {
  const res = await request.post("/about-us", { form: { first_name: "x" } });
  expect(res.status()).toBe(405);
});
