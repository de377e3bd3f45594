import { expect, test } from "../support/test";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { siteMap } from "../../../app/shell/navigation";
import { CHECK_FIELDS_MESSAGE } from "../../../app/forms/result";
import { htmlFormEndpoints, leadFormEndpoints } from "./endpoints";
import { freshIp, noJsFormFields, waitOutMinimumFillTime } from "./form-support";
import { spamCheckShown } from "../forms/helpers";

/**
 * Valid HTML (issue 15): the W3C Nu validator (the vnu-jar package, run with
 * the system's Java; scripts/test.mjs and .ci/run install Debian's
 * default-jre-headless when it is missing) reports 0 errors on every page of
 * the site map, every form page, and every form page as it comes back after a
 * failed submission without JavaScript (field errors, kept values, the message).
 * The pages are fetched as a browser without JavaScript gets them, written to a
 * temporary folder and checked in ONE validator run (a JVM start costs seconds).
 */

const vnuJar = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");

const siteMapRoutes = [...new Set(siteMap.flatMap((c) => c.links.map((l) => l.to)))];
const pages = [...new Set([...siteMapRoutes, ...htmlFormEndpoints])];

/** A control document the validator must reject: proves the run really checked the files. */
const CONTROL = "control-invalid.html";
const controlHtml =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>control</title></head>' +
  '<body><form><label for="x">x</label><input id="x" name="x" autocomplete="nope"></form></body></html>';

type VnuMessage = {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
  message: string;
  extract?: string;
};

function fileName(kind: "get" | "failed-post", route: string): string {
  return `${kind}${route.replace(/[^a-z0-9]+/gi, "_")}.html`;
}

/** Runs vnu once over every file; resolves with its messages (errors only). */
function validate(files: string[]): Promise<VnuMessage[]> {
  return new Promise((resolve, reject) => {
    const child = spawn("java", [
      "-jar",
      vnuJar,
      "--errors-only",
      "--format",
      "json",
      "--stdout",
      "--exit-zero-always",
      ...files,
    ]);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) =>
      reject(
        new Error(
          `could not start java: ${e.message}. The validator needs a Java runtime: ` +
            "apt-get install -y default-jre-headless (npm test installs it when run as root)",
        ),
      ),
    );
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`vnu exited ${code}: ${err || out}`));
      try {
        resolve((JSON.parse(out) as { messages: VnuMessage[] }).messages);
      } catch {
        reject(new Error(`vnu printed no JSON: ${out.slice(0, 2000)}${err.slice(0, 2000)}`));
      }
    });
  });
}

test("every site-map page and every form page after a failed no-JavaScript submission is valid HTML (W3C Nu validator: 0 errors)", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(path.join(tmpdir(), "html-valid-"));
  try {
    const written = new Map<string, string>(); // file name → what it is
    const save = async (name: string, what: string, html: string) => {
      await writeFile(path.join(dir, name), html);
      written.set(name, what);
    };

    for (const route of pages) {
      const res = await request.get(route);
      // The site map's pages, and the not-found page for a link without a page yet (it is a page people see too).
      expect([200, 404], `GET ${route}`).toContain(res.status());
      await save(fileName("get", route), `GET ${route} (${res.status()})`, await res.text());
    }

    // Fetch every form first, then post once the minimum fill time has passed
    // (a form posted sooner is dropped like a bot's, answered as a success:
    // not the page with errors that this test is about).
    const forms = [];
    const renderedAt = Date.now();
    for (const route of leadFormEndpoints) {
      const multipart = /enctype="multipart\/form-data"/.test(await (await request.get(route)).text());
      // The hidden fields and the answered sum, nothing else: every required field is missing.
      forms.push({ route, multipart, fields: await noJsFormFields(request, route) });
    }
    await waitOutMinimumFillTime(renderedAt);
    for (const { route, fields, multipart } of forms) {
      // A fresh client IP per post: the per-IP rate limit must not answer instead of the form.
      const headers = { Origin: baseURL!, "Fly-Client-IP": freshIp() };
      const res = multipart
        ? await request.post(route, { headers, multipart: fields })
        : await request.post(route, { headers, form: fields });
      const html = await res.text();
      expect(res.status(), `failed POST ${route}: ${html.slice(0, 300)}`).toBe(400);
      expect(html, `failed POST ${route} shows the form's error`).toContain(CHECK_FIELDS_MESSAGE);
      await save(fileName("failed-post", route), `POST ${route} (required fields missing, no JavaScript)`, html);
    }

    await writeFile(path.join(dir, CONTROL), controlHtml);
    const files = [...written.keys(), CONTROL].map((f) => path.join(dir, f));
    const messages = await validate(files);

    const fileOf = (m: VnuMessage) => (m.url ? path.basename(decodeURIComponent(m.url.replace(/^file:/, ""))) : "?");
    // The control file must be rejected, or the validator checked nothing.
    expect(messages.some((m) => fileOf(m) === CONTROL && m.type === "error" && /autocomplete/.test(m.message))).toBe(
      true,
    );

    const problems = messages
      .filter((m) => fileOf(m) !== CONTROL)
      .map((m) => {
        const file = fileOf(m);
        const where = `${file}:${m.lastLine ?? "?"}:${m.firstColumn ?? m.lastColumn ?? "?"}`;
        const extract = m.extract ? `\n    …${m.extract.replace(/\s+/g, " ").slice(0, 200)}…` : "";
        return `${where} [${written.get(file) ?? file}] ${m.type}: ${m.message}${extract}`;
      });
    expect(
      problems.length,
      `${problems.length} validator error(s) in ${written.size} pages:\n${problems.join("\n")}`,
    ).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * What the markup fixes must not change for people: the honeypot is never
 * seen, the "What is A + B?" sum shows only without JavaScript and then takes
 * the place of the widget's (hidden) slot; with JavaScript the widget shows.
 */
for (const javaScriptEnabled of [false, true]) {
  test.describe(`form captcha and honeypot, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    // The shop's pages show no lead form to a visitor with an empty cart (the checkout's captcha and
    // honeypot are filled and sent by tests/e2e/shop/checkout.spec.ts).
    const routes = javaScriptEnabled ? ["/contact", "/residential-patio-doors"] : [...leadFormEndpoints];
    for (const route of routes) {
      test(`${route}: the honeypot is hidden, ${javaScriptEnabled ? "the widget shows, not the sum" : "the sum takes the widget's slot"}`, async ({
        page,
      }) => {
        await page.goto(route);
        const form = page.locator("form.lead-form").first();
        const sum = form.getByRole("textbox", { name: /What is \d \+ \d\?/ });
        if (javaScriptEnabled) {
          await spamCheckShown(form);
          await expect(sum).toHaveCount(0);
        } else {
          await expect(sum).toBeVisible();
          await expect(form.locator(".form-captcha-slot")).toBeHidden();
        }
        await expect(form.locator('input[name="name__confirm"]')).toBeHidden();
        await expect(form.locator('input[name="from__confirm"]')).toBeHidden();
        await expect(form.getByText("Please leave this field blank")).toHaveCount(2);
        await expect(form.getByText("Please leave this field blank").first()).toBeHidden();
      });
    }
  });
}
