import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, spamCheckShown, statusMessage } from "../forms/helpers";

test.afterAll(closeE2eSql);

/**
 * One full form with the keyboard alone (issue 5): the residential quote
 * request, from the chooser to the stored row. Every field is reached with Tab
 * in the order it is read, and nothing hidden (the honeypot) takes a stop.
 */
async function tab(page: Page, to: Locator, name: string) {
  await page.keyboard.press("Tab");
  await expect(to, `Tab should move to ${name}`).toBeFocused();
}

/** Tab forward (through the header's links) until `to` has focus. */
async function tabUntil(page: Page, to: Locator, max: number) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await to.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`not reached with ${max} presses of Tab`);
}

for (const mode of modes) {
  test.describe(`keyboard only, full quote form, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled, viewport: { width: 1366, height: 900 } });

    test("choose residential, fill every kind of field, answer the captcha and send", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await page.goto("/request-quote");
      const main = page.locator("main#main");

      // Skip link, then the chooser's first card.
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(main).toBeFocused();
      const chooser = main.getByRole("list", { name: "Is this quote for Residential or Commercial?" });
      const residential = chooser.getByRole("link", { name: /Residential/ });
      await tab(
        page,
        main.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Home" }),
        "the breadcrumb",
      );
      await tab(page, residential, "the Residential card");
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\?type=residential$/);
      const form = page.getByRole("form", { name: "Residential quote request form" });
      if (mode.javaScriptEnabled) await spamCheckShown(form);

      // Wherever the new page leaves focus, Tab reaches the form's "Change" link; from there, field by field.
      await tabUntil(page, main.getByRole("link", { name: /Change/ }), 60);

      await tab(page, form.getByLabel("First Name"), "First Name");
      await page.keyboard.type("Grace");
      await tab(page, form.getByLabel("Last Name"), "Last Name");
      await page.keyboard.type("Hopper");
      await tab(page, form.getByLabel("Phone"), "Phone");
      await page.keyboard.type("(989) 555-0162");
      await tab(page, form.getByLabel("Email"), "Email");
      await page.keyboard.type(visitor.email);
      await tab(page, form.getByLabel("ZIP Code"), "ZIP Code");
      await page.keyboard.type("48604");

      const contactMethod = form.getByLabel("Preferred contact method");
      await tab(page, contactMethod, "Preferred contact method");
      await page.keyboard.type("Email"); // a closed <select> picks the option typed
      await expect(contactMethod).toHaveValue("Email");

      // The checkbox list: each box is a stop; Space ticks it.
      for (const option of [
        "Garage Doors",
        "Garage Door Opener",
        "Interior & Exterior Doors",
        "Patio Door",
        "Windows",
      ]) {
        await tab(page, form.getByRole("checkbox", { name: option }), option);
        if (option === "Garage Door Opener" || option === "Windows") await page.keyboard.press("Space");
      }
      for (const option of ["Gutters", "Siding", "Other"])
        await tab(page, form.getByRole("checkbox", { name: option }), option);
      await expect(form.getByRole("checkbox", { name: "Garage Door Opener" })).toBeChecked();
      await expect(form.getByRole("checkbox", { name: "Windows" })).toBeChecked();

      await tab(page, form.getByLabel("Tell us about your project"), "the project description");
      await page.keyboard.type(`New opener and two bedroom windows. ${visitor.tag}`);

      const start = form.getByLabel("When would you like to start?");
      await tab(page, start, "When would you like to start?");
      await page.keyboard.type("1 -");
      await expect(start).toHaveValue("1 - 2 Months");
      const meet = form.getByLabel("How would you like to meet?");
      await tab(page, meet, "How would you like to meet?");
      await page.keyboard.type("Showroom");
      await expect(meet).toHaveValue("Showroom");

      // A radio group is one stop: Space picks the focused answer, arrows move the choice.
      const financing = form.getByRole("radiogroup", { name: "Are you interested in financing?" });
      await tab(page, financing.getByRole("radio", { name: "Yes" }), "the financing question");
      await page.keyboard.press("Space");
      await page.keyboard.press("ArrowRight");
      await expect(financing.getByRole("radio", { name: "No" })).toBeChecked();
      const existing = form.getByRole("radiogroup", { name: "Are you an existing customer?" });
      await tab(page, existing.getByRole("radio", { name: "Yes" }), "the existing-customer question");
      await page.keyboard.press("Space");
      await expect(existing.getByRole("radio", { name: "Yes" })).toBeChecked();

      // The captcha: the widget's checkbox with JavaScript (it solved itself when the visitor started
      // the form: nothing to press), the sum without.
      if (mode.javaScriptEnabled) {
        await tab(page, form.locator("altcha-widget input[type=checkbox]"), "the captcha");
        await expect(form.locator('input[name="recaptcha_token"]')).toHaveValue(/.{20,}/, { timeout: 20_000 });
      } else {
        const sum = form.locator("label", { hasText: /What is \d \+ \d\?/ });
        const [, a, b] = /What is (\d) \+ (\d)\?/.exec(await sum.innerText())!;
        await tab(page, form.locator('input[name="captcha_answer"]'), "the captcha answer");
        await page.keyboard.type(String(Number(a) + Number(b)));
      }
      // The photos come after the captcha (issue 28: a browser sends a form's parts in page order, and
      // the server judges the captcha before it writes any file).
      await tab(page, form.getByLabel("Photos (optional)"), "the photo picker");

      await tab(page, form.getByRole("button", { name: "Submit" }), "Submit");
      await page.keyboard.press("Enter");
      await expect(statusMessage(page)).toHaveText(
        "Submitted successfully! A representative will reach out within 48 hours.",
      );

      const rows = await dbRows<{
        first_name: string;
        contact_method: string;
        quote_for: string[];
        start_time: string;
        consultation: string;
        financing: string;
        existing_customer: string;
      }>(
        "select first_name, contact_method, quote_for, start_time, consultation, financing, existing_customer from quote_requests where email = $1",
        visitor.email,
      );
      expect(rows).toEqual([
        {
          first_name: "Grace",
          contact_method: "Email",
          quote_for: ["Garage Door Opener", "Windows"],
          start_time: "1 - 2 Months",
          consultation: "Showroom",
          financing: "No",
          existing_customer: "Yes",
        },
      ]);
    });
  });
}
