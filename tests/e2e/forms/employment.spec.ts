import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { freshIp, noJsFormFields } from "../quality/form-support";
import { asNewVisitor, dbRows, modes, open, solveCaptcha, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);
// The database check at the end must run after both applications.
test.describe.configure({ mode: "serial" });

const SSN_DIGITS = ["123", "45", "6789"];

for (const [i, mode] of modes.entries()) {
  test.describe(`employment application, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("required fields are flagged, then the application is stored (SSN encrypted) and the form reset", async ({
      page,
    }) => {
      const visitor = await asNewVisitor(page);
      const ssn = `${SSN_DIGITS[0]}-${SSN_DIGITS[1]}-${SSN_DIGITS[2]!.slice(0, 3)}${i}`;
      await open(page, "/employment", mode.javaScriptEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "Employment Application" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Employment Application");
      const form = page.getByRole("form", { name: "Employment application form" });
      await expect(form.getByLabel("State")).toHaveValue("MI");
      await expect(form.getByLabel("Why are you a good fit for this position?")).toHaveAttribute("rows", "5");

      await form.getByLabel("First Name").fill("Dorothy");
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(form.getByText("Last Name is required.")).toBeVisible();
      await expect(form.getByText("Social Security # is required.")).toBeVisible();
      await expect(form.getByText("Please answer: Have you ever been convicted of a felony?")).toBeVisible();
      await expect(form.getByLabel("First Name")).toHaveValue("Dorothy");

      await form.getByLabel("Last Name").fill("Vaughan");
      await form.getByLabel("M.I.").fill("J");
      await form.getByLabel("Street Address").fill("41 Elm Street");
      await form.getByLabel("Apt/Unit").fill("2B");
      await form.getByLabel("City").fill("Flint");
      await form.getByLabel("ZIP Code").fill("48503");
      await form.getByLabel("Phone").fill("(810) 555-0144");
      await form.getByLabel("Email").fill(visitor.email);
      await form.getByLabel("Social Security #").fill(ssn);
      await form.getByLabel("Position Applied For").fill("Commercial Door Technician");
      await form.getByLabel("Desired Salary").fill("$26/hour");
      await form.getByLabel("Date Available").fill("2030-06-01");
      await form.getByLabel("Highest Level of Education").selectOption("Associate Degree");
      await form.getByRole("radiogroup", { name: "Are you a citizen of the United States?" }).getByLabel("Yes").check();
      await form
        .getByRole("radiogroup", { name: "Are you authorized to work in the United States?" })
        .getByLabel("Yes")
        .check();
      await form.getByRole("radiogroup", { name: "Have you ever worked for this company?" }).getByLabel("No").check();
      await form
        .getByRole("radiogroup", { name: "Have you ever been convicted of a felony?" })
        .getByLabel("No")
        .check();
      await form
        .getByLabel("Why are you a good fit for this position?")
        .fill(`Six years servicing overhead doors. ${visitor.tag}`);
      await solveCaptcha(page, mode.javaScriptEnabled, form);
      await form.getByRole("button", { name: "Submit" }).click();

      await expect(statusMessage(page)).toHaveText("Submitted successfully!");
      await expect(form.getByLabel("Last Name")).toHaveValue("");
      await expect(form.getByLabel("Social Security #")).toHaveValue("");
      await expect(form.getByLabel("State")).toHaveValue("MI");

      const [row] = await dbRows<{
        id: number;
        ssn_encrypted: string;
        us_citizen: boolean;
        education: string;
        client_ip: string;
      }>(
        "select id, ssn_encrypted, us_citizen, education, client_ip from employment_applications where email = $1",
        visitor.email,
      );
      expect(row).toMatchObject({ us_citizen: true, education: "Associate Degree", client_ip: visitor.ip });
      expect(row!.ssn_encrypted).toMatch(/^v2\./);
      expect(row!.ssn_encrypted).not.toContain(ssn.replace(/-/g, ""));
    });
  });
}

test.describe("a refused application never sends the SSN back", () => {
  const ssn = "987-65-4310";
  const ssnPattern = /987.?65.?4310/;

  test.describe("JavaScript off", () => {
    test.use({ javaScriptEnabled: false });
    test("the answer page (HTML and its hydration data) carries no SSN, and the field is empty", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      // Each POST's answer, taken when it arrives (reading its body is awaited below, not in the
      // listener: an awaited push could land after the assertions and count none).
      const answers: Promise<string>[] = [];
      page.on("response", (response) => {
        if (response.request().method() === "POST") answers.push(response.text().catch(() => ""));
      });
      await open(page, "/employment", false);
      const form = page.getByRole("form", { name: "Employment application form" });
      await form.getByLabel("First Name").fill("Katherine");
      await form.getByLabel("Last Name").fill("Johnson");
      await form.getByLabel("Email").fill(visitor.email);
      await form.getByLabel("Social Security #").fill(ssn);
      await solveCaptcha(page, false, form);
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(form.getByText("Street Address is required.")).toBeVisible();
      await expect(form.getByLabel("First Name")).toHaveValue("Katherine");
      await expect(form.getByLabel("Social Security #")).toHaveValue("");
      expect(await page.content()).toContain("__reactRouterContext");
      expect(await page.content()).not.toMatch(ssnPattern);
      expect(answers.length).toBe(1);
      const [answer] = await Promise.all(answers);
      expect(answer).toContain("Katherine");
      expect(answer).not.toMatch(ssnPattern);
    });
  });

  test("the same refused post sent again and again, and the data answer JavaScript gets, carry no SSN", async ({
    request,
  }) => {
    const fields = await noJsFormFields(request, "/employment");
    const form = { ...fields, firstName: "Mary", lastName: "Jackson", email: "mary.jackson@example.com", ssn };
    const headers = { "Fly-Client-IP": freshIp() };
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await request.post("/employment", { form, headers, maxRedirects: 0 });
      expect(response.status()).toBe(400);
      bodies.push(await response.text());
    }
    // What the enhanced form receives (React Router's single-fetch data request).
    const data = await request.post("/employment.data", { form, headers, maxRedirects: 0 });
    expect(data.status()).toBe(400);
    bodies.push(await data.text());
    for (const body of bodies) {
      expect(body).toContain("Mary");
      expect(body).not.toMatch(ssnPattern);
    }
  });
});

test.describe("after the employment tests", () => {
  test("no SSN in plain text anywhere in the database", async () => {
    // A dump of every row of every table, as text.
    const tables = await dbRows<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    let dump = "";
    for (const { table_name } of tables) {
      const rows = await dbRows<{ t: string }>(`select t::text as t from "${table_name}" t`);
      dump += rows.map((r) => r.t).join("\n");
    }
    expect(dump.includes("Six years servicing overhead doors."), "the applications are in the dump").toBe(true);
    for (const i of [0, 1]) {
      const digits = `${SSN_DIGITS.join("").slice(0, 8)}${i}`;
      expect(dump.includes(digits), `SSN ${i} (digits) in the dump`).toBe(false);
      expect(
        dump.includes(`${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`),
        `SSN ${i} (dashed) in the dump`,
      ).toBe(false);
    }
  });
});
