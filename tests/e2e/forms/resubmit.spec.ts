import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { freshIp, noJsFormFields } from "../quality/form-support";
import { asNewVisitor, dbRows, fillContact, modes, open, solveCaptcha, statusMessage } from "./helpers";

/**
 * Submission keys (issue 15): a form render posted twice is stored once and
 * both answers say it was sent; a second message from the same page is a new
 * submission, not mistaken for the first.
 */
test.afterAll(closeE2eSql);

for (const mode of modes) {
  test.describe(`contact form, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("two messages sent one after the other from the same page are both stored", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      await open(page, "/contact", mode.javaScriptEnabled);
      const form = page.getByRole("form", { name: "Contact form" });
      const firstKey = await form.locator('input[name="submission_key"]').inputValue();
      expect(firstKey).toMatch(/^[\w-]{16,64}$/);
      for (const n of [1, 2]) {
        await fillContact(form, {
          first: "Mary",
          last: "Golda Ross",
          email: visitor.email,
          phone: "(810) 555-0147",
          details: `Message ${n}. ${visitor.tag}`,
        });
        await solveCaptcha(page, mode.javaScriptEnabled, form);
        await form.getByRole("button", { name: "Submit" }).click();
        await expect(statusMessage(page)).toHaveText("Your message has been sent!");
        await expect(form.getByLabel("First Name")).toHaveValue("");
        await expect(form.locator('input[name="submission_key"]')).not.toHaveValue(firstKey);
      }
      const rows = await dbRows<{ details: string }>(
        "select details from contact_submissions where email = $1 order by id",
        visitor.email,
      );
      expect(rows.map((r) => r.details)).toEqual([`Message 1. ${visitor.tag}`, `Message 2. ${visitor.tag}`]);
    });
  });
}

test("the same form render posted twice (a refresh, a retry after no answer) is stored once, and both answers say it was sent", async ({
  request,
}) => {
  const fields = await noJsFormFields(request, "/contact");
  expect(fields.submission_key).toMatch(/^[\w-]{16,64}$/);
  const email = `resend.${Date.now().toString(36)}@example.com`;
  const form = {
    ...fields,
    first_name: "Annie",
    last_name: "Easley",
    email,
    phone: "(810) 555-0148",
    details: "Sent twice on purpose.",
  };
  const headers = { "Fly-Client-IP": freshIp() };
  for (let i = 0; i < 2; i++) {
    const response = await request.post("/contact", { form, headers, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain("Your message has been sent!");
  }
  expect(await dbRows("select id from contact_submissions where email = $1", email)).toHaveLength(1);
  expect(
    await dbRows(
      "select id from outbox where source_table = 'contact_submissions' and source_id = (select id from contact_submissions where email = $1)",
      email,
    ),
  ).toHaveLength(2);
});
