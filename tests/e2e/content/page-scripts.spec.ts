import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../support/chromium";
import { expect, runsScripts, test } from "../support/test";

/**
 * Scripts only where a page has a form of its own (app/shell/page-scripts.ts,
 * docs/decisions/079): every page of the site map is fetched as a browser gets it.
 */

/** The forms of a page other than the header's colour-scheme toggle. */
const ownForms = (html: string) =>
  [...html.matchAll(/<form\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !/action="\/color-scheme"/.test(tag));
const moduleScript = (html: string) => /<script\b[^>]*type="module"/.test(html);
const modulePreload = (html: string) => /<link\b[^>]*rel="modulepreload"/.test(html);

test("every page of the site map: no script without a form of its own, and every form posts without one", async ({
  request,
}) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(paths.length).toBeGreaterThan(20);

  const withoutScripts: string[] = [];
  const wrong: string[] = [];
  for (const path of paths) {
    const html = await (await request.get(path)).text();
    const forms = ownForms(html);
    if (forms.length === 0) {
      if (moduleScript(html) || modulePreload(html)) wrong.push(`${path}: scripts without a form`);
      else withoutScripts.push(path);
      continue;
    }
    if (!moduleScript(html)) wrong.push(`${path}: a form without its scripts`);
    // The path without JavaScript: each form is a real one the browser can send.
    for (const form of forms) {
      const post = /method="post"/i.test(form) && /action="[^"]+"/.test(form);
      const get = /method="get"/i.test(form) || !/method=/i.test(form);
      if (!post && !get) wrong.push(`${path}: ${form}`);
    }
    if (!/<button\b[^>]*type="submit"/.test(html)) wrong.push(`${path}: no submit button`);
  }
  expect(wrong).toEqual([]);
  // The pages without a form of their own (the list) are among them, not vacuously.
  for (const path of ["/", "/about-us", "/service-area", "/careers", "/review", "/privacy", "/terms"])
    expect(withoutScripts).toContain(path);
  expect(withoutScripts).not.toContain("/contact");
});

test("a page without scripts reached from a page that runs the app: still the app's, at the top", async ({ page }) => {
  await page.goto("/contact");
  await page.evaluate(() => ((window as unknown as { mark: number }).mark = 1));
  const link = page.locator("footer").getByRole("link", { name: "About Us" }).first();
  await link.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/About/);
  // A client-side navigation (the same document), scrolled to the top, without the no-script CSS.
  expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(1);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.locator("html")).not.toHaveAttribute("data-scripts", "off");
});

test("the 404 page runs no script", async ({ request }) => {
  const html = await (await request.get("/no-such-page/here")).text();
  expect(moduleScript(html) || modulePreload(html)).toBe(false);
});

test.describe("the scroll animations of a page that runs no script, in CSS", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the short banner moves at 0.3 of the scroll, up to a third of its height; a section rises as it arrives", async ({
    page,
  }) => {
    await page.goto("/about-us");
    expect(await runsScripts(page)).toBe(false);
    const shift = () =>
      page.locator(".banner--short .banner-image").evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m42);
    const scrollTo = (y: number) => page.evaluate((top) => window.scrollTo(0, top), y);
    expect(await shift()).toBe(0);
    await scrollTo(100);
    await expect.poll(shift).toBeCloseTo(30, 0);
    await scrollTo(600);
    await expect.poll(shift).toBeCloseTo(220 / 3, 0); // the cap: a third of 220 px

    await scrollTo(0);
    const below = page.locator('[data-reveal=""]').nth(1);
    const rise = () => below.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m42);
    expect(await below.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(844);
    await expect.poll(rise).toBe(24);
    await below.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await expect.poll(rise).toBe(0);
    // Never transparent: text caught half way keeps its contrast.
    expect(await below.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  });

  test("with reduced motion nothing moves", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/about-us");
    const moved = await page
      .locator('[data-reveal=""], .banner-image')
      .evaluateAll((els) => els.filter((el) => getComputedStyle(el).transform !== "none").length);
    expect(moved).toBe(0);
  });
});

test.describe("speculation rules and the back/forward cache", () => {
  test("a marketing link is prerendered on intent, and Back restores the page from the cache", async ({ baseURL }) => {
    // Playwright turns the back/forward cache off in the browsers it starts: this one keeps it.
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: chromiumArgs,
      ignoreDefaultArgs: ["--disable-back-forward-cache"],
    });
    const page = await browser.newPage({ baseURL });
    await page.goto("/");
    const rules = JSON.parse((await page.locator('script[type="speculationrules"]').textContent()) ?? "{}") as {
      prerender: { where: { href_matches: string[] }; eagerness: string }[];
    };
    expect(rules.prerender[0]!.where.href_matches).toContain("/about-us");
    expect(rules.prerender[0]!.where.href_matches).not.toContain("/contact");

    await page.evaluate(() => {
      const w = window as unknown as { marker: number; restored?: boolean };
      w.marker = 7;
      addEventListener("pageshow", (event) => (w.restored = event.persisted));
    });
    const prerendered = page.waitForRequest(
      (r) => r.url().endsWith("/about-us") && (r.headers()["sec-purpose"] ?? "").includes("prerender"),
    );
    const link = page.locator("footer").getByRole("link", { name: "About Us" }).first();
    await link.hover();
    await prerendered; // asked for on the pointer's rest, before any click
    await link.click();
    await expect(page).toHaveURL(/\/about-us$/);
    // A page restored from the cache fires no load event: Back returns once it is committed.
    await page.goBack({ waitUntil: "commit" });
    await expect(page).toHaveURL(/\/$/);
    // The same document, restored whole: a reload would have lost the mark.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    expect(await page.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
    await browser.close();
  });
});
