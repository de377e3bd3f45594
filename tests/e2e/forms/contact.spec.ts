import { expect, test } from "../support/test";
import { closeE2eSql } from "../support/db";
import { asNewVisitor, dbRows, fillContact, modes, open, solveCaptcha, spamCheckShown, statusMessage } from "./helpers";

test.afterAll(closeE2eSql);

for (const mode of modes) {
  test.describe(`contact form, ${mode.name}`, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });

    test("errors keep the values, then the message is sent and the form cleared", async ({ page }) => {
      const visitor = await asNewVisitor(page);
      // With JavaScript the spam check solves itself once the visitor starts the form: here its
      // challenge cannot be fetched, so it fails and the form is refused for it (then it is let through).
      const challenge = "**/api/captcha/challenge**";
      if (mode.javaScriptEnabled) await page.route(challenge, (route) => route.abort());
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
      // Without JavaScript the post reached the server with no sum answered either: the message asks for both.
      if (!mode.javaScriptEnabled)
        await expect(statusMessage(page)).toHaveText(
          "Please correct the highlighted fields and send the form again. Please complete the spam check.",
        );
      await form.getByLabel("Email").fill(visitor.email);

      await form.getByLabel("Last Name").fill("Hopper");
      await form.getByLabel("Phone").fill("(810) 555-0142");
      await form.getByLabel("How can we help you?").fill(`The opener clicks but the door stays shut. ${visitor.tag}`);

      // No captcha: red message, nothing stored.
      await form.getByRole("button", { name: "Submit" }).click();
      await expect(statusMessage(page)).toHaveText("Please complete the spam check.");
      await expect(statusMessage(page)).toHaveClass(/form-message--error/);
      await expect(form.getByLabel("Last Name")).toHaveValue("Hopper");
      expect(await dbRows("select id from contact_submissions where email = $1", visitor.email)).toHaveLength(0);

      if (mode.javaScriptEnabled) await page.unroute(challenge);
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

test("with JavaScript a failed request shows 'An error occurred. Please try again.' and keeps the values", async ({
  page,
}) => {
  const visitor = await asNewVisitor(page);
  await open(page, "/contact", true);
  const form = page.getByRole("form", { name: "Contact form" });
  await fillContact(form, {
    first: "Edsger",
    last: "Dijkstra",
    email: visitor.email,
    phone: "810 555 0160",
    details: "Sliding patio door quote.",
  });
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
  await fillContact(form, {
    first: "Alan",
    last: "Turing",
    email: visitor.email,
    phone: "810 555 0150",
    details: "Quote for two windows.",
  });
  await solveCaptcha(page, true, form);
  // Hold the post until the pending state has been seen, then let it through.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route("**/contact.data*", async (route) => {
    await released;
    await route.continue();
  });
  // No page load: the form is enhanced (a marker on window survives).
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(form.getByRole("button", { name: "Sending..." })).toBeDisabled();
  release();
  await expect(statusMessage(page)).toHaveText("Your message has been sent!");
  await expect(form.getByRole("button", { name: "Submit" })).toBeEnabled();
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
});

/** The per-answer strings of a form page: nonce, the sum, its signed token, the honeypot's timestamp. */
function perAnswer(html: string) {
  return {
    nonce: /nonce="([^"]+)"/.exec(html)![1]!,
    question: /What is \d \+ \d\?/.exec(html)![0],
    token: /name="captcha_challenge" value="([^"]+)"/.exec(html)![1]!,
    validFrom: /name="from__confirm" value="([^"]+)"/.exec(html)![1]!,
    submissionKey: /name="submission_key" value="([^"]+)"/.exec(html)![1]!,
  };
}

test("a form page is rendered once and reused: each answer still gets its own nonce, sum, honeypot timestamp and submission key", async ({
  request,
}) => {
  const first = await request.get("/contact");
  const second = await request.get("/contact");
  expect(second.headers()["x-page-cache"]).toBe("hit");
  const [a, b] = [await first.text(), await second.text()];
  const [va, vb] = [perAnswer(a), perAnswer(b)];
  for (const name of ["nonce", "token", "validFrom", "submissionKey"] as const) expect(vb[name]).not.toBe(va[name]);
  expect(second.headers()["content-security-policy"]).toContain(`'nonce-${vb.nonce}'`);
  // Everywhere the render put them (markup and hydration data), and nothing else differs.
  const neutral = (html: string, v: ReturnType<typeof perAnswer>) =>
    html
      .replaceAll(v.nonce, "N")
      .replaceAll(v.token, "T")
      .replaceAll(v.validFrom, "V")
      .replaceAll(v.question, "Q")
      .replaceAll(v.submissionKey, "K");
  expect(b.split(vb.token)).toHaveLength(3);
  expect(neutral(b, vb)).toBe(neutral(a, va));
});

test.describe("contact form without JavaScript, several messages in a row", () => {
  test.use({ javaScriptEnabled: false });

  test("each reused page and success answer carries a challenge that works once", async ({ page }) => {
    const visitor = await asNewVisitor(page);
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Contact form" });
    const answers: (string | undefined)[] = [];
    for (const n of [1, 2, 3, 4]) {
      await fillContact(form, {
        first: "Ada",
        last: `Lovelace ${n}`,
        email: visitor.email,
        phone: "(810) 555-0147",
        details: `Message ${n} ${visitor.tag}`,
      });
      await solveCaptcha(page, false, form);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/contact"),
        form.getByRole("button", { name: "Submit" }).click(),
      ]);
      answers.push(response.headers()["x-page-cache"]);
      await expect(statusMessage(page)).toHaveText("Your message has been sent!");
      await expect(form.getByLabel("Last Name")).toHaveValue("");
    }
    // From the third on, the success answer is a copy (seen twice before); the fourth message
    // was sent with the challenge the third answer's copy carried.
    expect(answers.slice(2)).toEqual(["hit", "hit"]);
    const rows = await dbRows<{ last_name: string }>(
      "select last_name from contact_submissions where email = $1 order by id",
      visitor.email,
    );
    expect(rows.map((r) => r.last_name)).toEqual(["Lovelace 1", "Lovelace 2", "Lovelace 3", "Lovelace 4"]);
  });
});

test("with JavaScript a reused form page hydrates cleanly and sends", async ({ page, request }) => {
  await request.get("/contact"); // make sure the next answer is a copy
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  const visitor = await asNewVisitor(page);
  const response = await page.goto("/contact");
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  await spamCheckShown(page);
  const form = page.getByRole("form", { name: "Contact form" });
  await fillContact(form, {
    first: "Katherine",
    last: "Johnson",
    email: visitor.email,
    phone: "810 555 0133",
    details: "Storm door estimate.",
  });
  await solveCaptcha(page, true, form);
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(statusMessage(page)).toHaveText("Your message has been sent!");
  expect(await dbRows("select id from contact_submissions where email = $1", visitor.email)).toHaveLength(1);
  expect(errors).toEqual([]);
});
