import { expect, test } from "@playwright/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

for (const mode of modes) {
  test.describe(`contact form, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("errors keep the values, then the message is sent and the form cleared", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, "/contact", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Contact form" });

      // Required fields missing: errors beside the fields, values kept.
      // A mistyped e-mail, then straight to Submit (its blur error must not swallow the click).
      await form.getByLabel("First Name").fill("Grace");
      await form.getByLabel("Email").fill("grace@example");
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(form.getByText("Please enter a valid email address, like name@example.com.")).toBeVisible();
      await expect(form.getByText("Last Name is required.")).toBeVisible();
      await expect(form.getByText("Phone is required.")).toBeVisible();
      await expect(form.getByText("Please tell us how we can help.")).toBeVisible();
      await expect(form.getByLabel("First Name")).toHaveValue("Grace");
      await expect(form.getByLabel("Email")).toHaveValue("grace@example");
      await form.getByLabel("Email").fill(visitor.email);

      await form.getByLabel("Last Name").fill("Hopper");
      await form.getByLabel("Phone").fill("(810) 555-0142");
      await form.getByLabel("How can we help you?").fill(`The opener clicks but the door stays shut. ${visitor.tag}`);

      // No captcha: red message, nothing stored.
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(statusMessage(page)).toHaveText("Please complete the CAPTCHA.");
      await expect(statusMessage(page)).toHaveClass(/form-message--error/);
      await expect(form.getByLabel("Last Name")).toHaveValue("Hopper");
      expect(await dbRows("select id from contact_submissions where email = $1", visitor.email)).toHaveLength(0);

      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(statusMessage(page)).toHaveText("Your message has been sent!");
      await expect(statusMessage(page)).toHaveClass(/form-message--success/);
      await expect(form.getByLabel("First Name")).toHaveValue("");
      await expect(form.getByLabel("How can we help you?")).toHaveValue("");

      const rows = await dbRows<{ id: number; first_name: string; client_ip: string; details: string }>(
        "select id, first_name, client_ip, details from contact_submissions where email = $1",
        visitor.email,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ first_name: "Grace", client_ip: visitor.ip });
      const mail = await dbRows<{ to: string }>(
        "select \"to\" from outbox where source_table = 'contact_submissions' and source_id = $1 order by id",
        rows[0]!.id,
      );
      expect(mail.map((m) => m.to)).toEqual(["info@example.com", visitor.email]);
    });
  });
}

test("with JavaScript a failed request shows 'An error occurred. Please try again.' and keeps the values", async ({ page }) => {
  const visitor = await asNewVisitor(page);
  await open(page, "/contact", true);
  const form = page.getByRole("form", { name: "Contact form" });
  await form.getByLabel("First Name").fill("Edsger");
  await form.getByLabel("Last Name").fill("Dijkstra");
  await form.getByLabel("Email").fill(visitor.email);
  await form.getByLabel("Phone").fill("810 555 0160");
  await form.getByLabel("How can we help you?").fill("Sliding patio door quote.");
  await solveCaptcha(page, true, form);
  await page.route("**/contact.data*", (route) => route.abort("connectionreset"));
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(statusMessage(page)).toHaveText("An error occurred. Please try again.");
  await expect(form.getByLabel("Last Name")).toHaveValue("Dijkstra");
  expect(await dbRows("select id from contact_submissions where email = $1", visitor.email)).toHaveLength(0);
});

test("with JavaScript the button reads 'Sending...' and is disabled while the message is sent", async ({ page }) => {
  const visitor = await asNewVisitor(page);
  await open(page, "/contact", true);
  const form = page.getByRole("form", { name: "Contact form" });
  await form.getByLabel("First Name").fill("Alan");
  await form.getByLabel("Last Name").fill("Turing");
  await form.getByLabel("Email").fill(visitor.email);
  await form.getByLabel("Phone").fill("810 555 0150");
  await form.getByLabel("How can we help you?").fill("Quote for two windows.");
  await solveCaptcha(page, true, form);
  // Hold the response a moment so the pending state can be seen.
  await page.route("**/contact.data*", async (route) => {
    await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
  // No page load: the form is enhanced (a marker on window survives).
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(form.getByRole("button", { name: "Sending..." })).toBeDisabled();
  await expect(statusMessage(page)).toHaveText("Your message has been sent!");
  await expect(form.getByRole("button", { name: "Submit" })).toBeEnabled();
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
});
