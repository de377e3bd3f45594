import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, photo, solveCaptcha, spamCheckShown, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

const SUCCESS = "Submitted successfully! A representative will reach out within 48 hours.";

test.describe("full quote form, JavaScript on", () => {
  test("residential: chooser, 4 photos cut to the first 3 with a word beside the field, 2 photos sent, form cleared", async ({
    page,
  }) => {
    const visitor = await asNewVisitor(page);
    await page.goto("/request-quote");
    await expect(page.getByRole("heading", { name: "Is this quote for Residential or Commercial?" })).toBeVisible();
    await page
      .getByRole("list", { name: "Is this quote for Residential or Commercial?" })
      .getByRole("link", { name: /Residential/ })
      .click();
    await expect(page).toHaveURL(/\?type=residential$/);
    await expect(page.getByRole("heading", { name: "Residential Quote Request" })).toBeVisible();
    await spamCheckShown(page);
    const form = page.getByRole("form", { name: "Residential quote request form" });
    await expect(form.getByLabel("Business Name")).toHaveCount(0);

    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    const files = form.getByLabel("Photos (optional)");
    await files.setInputFiles([photo("a.png"), photo("b.png"), photo("c.png"), photo("d.png")]);
    // Said on the page, beside the field, and read with it; no dialog; the first three kept.
    const kept = form.getByText(
      "You can only upload up to 3 photos. The first 3 you chose are kept: a.png, b.png, c.png.",
    );
    await expect(kept).toBeVisible();
    await expect(files).toHaveAttribute("aria-describedby", new RegExp(`${await kept.getAttribute("id")}`));
    expect(await files.evaluate((el: HTMLInputElement) => Array.from(el.files ?? []).map((f) => f.name))).toEqual([
      "a.png",
      "b.png",
      "c.png",
    ]);
    expect(dialogs).toEqual([]);
    await files.setInputFiles([photo("front.png"), photo("side.png")]);

    await form.getByLabel("First Name").fill("Marie");
    await form.getByLabel("Last Name").fill("Curie");
    await form.getByLabel("Phone").fill("(989) 555-0161");
    await form.getByLabel("Email").fill(visitor.email);
    await form.getByLabel("ZIP Code").fill("48603");
    await form.getByLabel("Preferred contact method").selectOption("Text");
    await form.getByLabel("Garage Doors").check();
    await form.getByLabel("Windows").check();
    await form.getByLabel("Tell us about your project").fill(`Double door, insulated. ${visitor.tag}`);
    await form.getByLabel("When would you like to start?").selectOption("ASAP");
    await form.getByLabel("How would you like to meet?").selectOption({ label: "Just want budgetary pricing" });
    await form.getByRole("radiogroup", { name: "Are you interested in financing?" }).getByLabel("No").check();
    await form.getByRole("radiogroup", { name: "Are you an existing customer?" }).getByLabel("Yes").check();
    await solveCaptcha(page, true, form);
    await form.getByRole("button", { name: "Submit" }).click();

    await expect(statusMessage(page)).toHaveText(SUCCESS);
    await expect(form.getByLabel("First Name")).toHaveValue("");
    await expect(form.getByLabel("Garage Doors")).not.toBeChecked();
    // The cleared selects show their placeholder again, not a blank (issue 31).
    for (const label of ["Preferred contact method", "When would you like to start?", "How would you like to meet?"]) {
      await expect
        .poll(() => form.getByLabel(label).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? ""))
        .toBe("Select…");
    }
    // The message is in view and clear of the "Call us" bar along the bottom (DECISIONS 6).
    await expect(statusMessage(page)).toBeInViewport({ ratio: 1 });
    const message = (await statusMessage(page).boundingBox())!;
    const bar = (await page.locator(".floating-call").boundingBox())!;
    expect(message.y + message.height).toBeLessThanOrEqual(bar.y);

    const [row] = await dbRows<{
      id: number;
      source: string;
      quote_type: string;
      quote_for: string[];
      consultation: string;
      client_ip: string;
    }>(
      "select id, source, quote_type, quote_for, consultation, client_ip from quote_requests where email = $1",
      visitor.email,
    );
    expect(row).toMatchObject({
      source: "full",
      quote_type: "Residential",
      quote_for: ["Garage Doors", "Windows"],
      consultation: "Not Interested",
      client_ip: visitor.ip,
    });
    const uploads = await dbRows<{ file_name: string; mime: string }>(
      "select file_name, mime from uploads where submission_table = 'quote_requests' and submission_id = $1 order by id",
      row!.id,
    );
    expect(uploads).toEqual([
      { file_name: "front.png", mime: "image/png" },
      { file_name: "side.png", mime: "image/png" },
    ]);
  });
});

test.describe("full quote form, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("commercial: 4 photos give a field error with values kept, then 1 photo is sent", async ({ page }) => {
    const visitor = await asNewVisitor(page);
    await page.goto("/request-quote");
    await page
      .getByRole("list", { name: "Is this quote for Residential or Commercial?" })
      .getByRole("link", { name: /Commercial/ })
      .click();
    await expect(page.getByRole("heading", { name: "Commercial Quote Request" })).toBeVisible();
    await expect(page.getByRole("link", { name: /Change/ })).toHaveAttribute("href", "/request-quote");
    const form = page.getByRole("form", { name: "Commercial quote request form" });

    await form.getByLabel("Business Name").fill(`Lakeside Storage ${visitor.tag}`);
    await form.getByLabel("First Name").fill("Ken");
    await form.getByLabel("Last Name").fill("Thompson");
    await form.getByLabel("Phone").fill("(248) 555-0177");
    await form.getByLabel("Email").fill(visitor.email);
    await form.getByLabel("ZIP Code").fill("48341");
    await form.getByLabel("Preferred contact method").selectOption("Email");
    await form.getByLabel("Rolling Steel Doors").check();
    await form.getByLabel("When would you like to start?").selectOption("1 - 2 Months");
    await form.getByLabel("How would you like to meet?").selectOption("In-Home");
    await form.getByRole("radiogroup", { name: "Are you interested in financing?" }).getByLabel("Yes").check();
    await form.getByRole("radiogroup", { name: "Are you an existing customer?" }).getByLabel("No").check();
    await form
      .getByLabel("Photos (optional)")
      .setInputFiles([photo("1.png"), photo("2.png"), photo("3.png"), photo("4.png")]);
    await solveCaptcha(page, false, form);
    await form.getByRole("button", { name: "Submit" }).click();

    await expect(form.getByText("You can only upload up to 3 photos.")).toBeVisible();
    await expect(statusMessage(page)).toHaveClass(/form-message--error/);
    await expect(form.getByLabel("Business Name")).toHaveValue(`Lakeside Storage ${visitor.tag}`);
    await expect(form.getByLabel("Rolling Steel Doors")).toBeChecked();
    await expect(form.getByLabel("How would you like to meet?")).toHaveValue("In-Home");
    expect(await dbRows("select id from quote_requests where email = $1", visitor.email)).toHaveLength(0);

    await form.getByLabel("Photos (optional)").setInputFiles([photo("dock.png")]);
    await solveCaptcha(page, false, form);
    await form.getByRole("button", { name: "Submit" }).click();
    await expect(statusMessage(page)).toHaveText(SUCCESS);
    await expect(form.getByLabel("Business Name")).toHaveValue("");

    const [row] = await dbRows<{
      id: number;
      business_name: string;
      existing_customer: string;
      quote_type: string;
      financing: string;
    }>(
      "select id, business_name, existing_customer, quote_type, financing from quote_requests where email = $1",
      visitor.email,
    );
    expect(row).toMatchObject({
      business_name: `Lakeside Storage ${visitor.tag}`,
      existing_customer: "No",
      quote_type: "Commercial",
      financing: "Yes",
    });
    expect(
      await dbRows("select id from uploads where submission_table = 'quote_requests' and submission_id = $1", row!.id),
    ).toHaveLength(1);
  });
});
