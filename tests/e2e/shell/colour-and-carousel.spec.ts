import AxeBuilder from "@axe-core/playwright";
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";

// Issue 31 items 2 and 3 (docs/decisions/062-colour-mode-and-carousel.md): the colour mode
// follows the system and the visitor's stored choice without JavaScript, and the footer's
// review carousel can be paused, holds for focus, hover and reduced motion, and says nothing
// while it turns on its own.

const WHITE = "rgb(255, 255, 255)";

/** Whether a CSS colour is dark (its channels' mean under 80). */
function isDark(rgb: string): boolean {
  const channels = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  return channels.length === 3 && channels.reduce((a, b) => a + b, 0) / 3 < 80;
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, summary.join("\n")).toEqual([]);
}

test.describe("colour mode without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test.describe("dark system", () => {
    test.use({ colorScheme: "dark" });

    for (const path of ["/", "/contact"]) {
      test(`${path} renders dark, form fields included, with no axe violations`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "auto");
        expect(isDark(await bodyBackground(page))).toBe(true);
        if (path === "/contact") {
          const input = page.getByLabel("First Name");
          expect(isDark(await input.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(true);
        }
      });
    }
  });

  test("a light system renders light", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    expect(await bodyBackground(page)).toBe(WHITE);
  });

  test("the toggle is a form: the choice is stored in a cookie and rendered by the server", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/about-us");
    const toggle = page.getByTestId("color-scheme-toggle");
    await expect(toggle).toBeEnabled();
    await expect(toggle).toHaveAttribute("data-scheme", "auto");

    await toggle.click(); // system → light: a POST, then back to the page
    await expect(page).toHaveURL(/\/about-us$/);
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
    expect(await bodyBackground(page)).toBe(WHITE); // light although the system is dark
    await expect(page.getByTestId("color-scheme-toggle")).toHaveAttribute("data-scheme", "light");

    await page.getByTestId("color-scheme-toggle").click(); // light → dark
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    expect(isDark(await bodyBackground(page))).toBe(true); // dark although the system is light

    await page.getByTestId("color-scheme-toggle").click(); // dark → system
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "auto");
    expect(await bodyBackground(page)).toBe(WHITE);
  });
});

// axe cannot run with JavaScript off: the page as the server sent it for "auto" (no choice), the
// attribute put back after the scripts resolved it, is what a JavaScript-less visitor sees.
test.describe('the server\'s "auto" page (what a visitor without JavaScript sees)', () => {
  for (const colorScheme of ["light", "dark"] as const) {
    test.describe(colorScheme, () => {
      test.use({ colorScheme });
      for (const path of ["/", "/contact"]) {
        test(`${path} has no axe violations`, async ({ page }) => {
          test.setTimeout(60_000);
          await page.goto(path);
          await page.evaluate(() => document.documentElement.setAttribute("data-mantine-color-scheme", "auto"));
          expect(isDark(await bodyBackground(page))).toBe(colorScheme === "dark");
          await expectNoAxeViolations(page);
        });
      }
    });
  }
});

test.describe("the stored choice, rendered by the server", () => {
  test("no flash: the first frame already shows the cookie's scheme (JavaScript on)", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ colorScheme: "light" });
    await context.addCookies([{ name: "color-scheme", value: "dark", url: baseURL! }]);
    const page = await context.newPage();
    // Before any of the page's scripts: note the scheme and the background of the first frame.
    await page.addInitScript(() => {
      const record = () => {
        const w = window as unknown as { firstFrame?: { scheme: string | null; background: string } };
        w.firstFrame ??= {
          scheme: document.documentElement.getAttribute("data-mantine-color-scheme"),
          background: getComputedStyle(document.body).backgroundColor,
        };
      };
      requestAnimationFrame(record);
    });
    const response = await page.goto("/", { waitUntil: "commit" });
    expect(await response!.text()).toContain('data-mantine-color-scheme="dark"');
    await page.waitForLoadState("load"); // the home page runs no scripts: whole at load
    const first = await page.evaluate(() => (window as unknown as { firstFrame?: unknown }).firstFrame);
    expect(first).toMatchObject({ scheme: "dark" });
    expect(isDark((first as { background: string }).background)).toBe(true);

    // A page with a form: Mantine's provider agrees once hydrated (its inputs dark too).
    await page.goto("/contact");
    const input = page.getByLabel("First Name");
    await expect(input).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    expect(isDark(await input.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(true);
    // The toggle (JavaScript on) writes the cookie the server reads.
    await page.getByTestId("color-scheme-toggle").click(); // dark → system (light OS)
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
    expect((await context.cookies()).find((c) => c.name === "color-scheme")?.value).toBe("auto");
    await context.close();
  });

  test("a page rendered for a stored choice never reaches another visitor through the page cache", async ({
    playwright,
    baseURL,
  }) => {
    const anonymous = await playwright.request.newContext({ baseURL });
    await anonymous.get("/about-us");
    const shared = await anonymous.get("/about-us");
    expect(shared.headers()["x-page-cache"]).toBe("hit");
    expect(await shared.text()).toContain('data-mantine-color-scheme="auto"');

    const { hostname } = new URL(baseURL!);
    const cookie = { name: "color-scheme", value: "dark", domain: hostname, path: "/", expires: -1 };
    const chooser = await playwright.request.newContext({
      baseURL,
      storageState: { cookies: [{ ...cookie, httpOnly: false, secure: false, sameSite: "Lax" }], origins: [] },
    });
    for (let i = 0; i < 2; i++) {
      // Its own render (or a remembered copy of the same dark render: x-page-cache may say hit), never shared.
      const own = await chooser.get("/about-us");
      expect(own.headers()["cache-control"]).toBe("private, no-store");
      expect(await own.text()).toContain('data-mantine-color-scheme="dark"');
    }
    const after = await anonymous.get("/about-us");
    expect(await after.text()).toContain('data-mantine-color-scheme="auto"');
    await anonymous.dispose();
    await chooser.dispose();
  });

  test("the colour form refuses what is not a scheme and never redirects off the site", async ({ request }) => {
    expect((await request.post("/color-scheme", { form: { scheme: "purple" }, maxRedirects: 0 })).status()).toBe(400);
    const away = await request.post("/color-scheme", {
      form: { scheme: "dark", back: "//evil.example/" },
      headers: { Referer: "https://evil.example/x" },
      maxRedirects: 0,
    });
    expect(away.status()).toBe(303);
    expect(away.headers()["location"]).toBe("/");
    expect(away.headers()["set-cookie"]).toMatch(/^color-scheme=dark; Path=\/; Max-Age=\d+; SameSite=Lax/);
  });
});

// ── The review carousel ─────────────────────────────────────────────

async function openCarousel(page: Page): Promise<{ toggle: Locator; live: Locator }> {
  // A page that runs the app (it has a form): a page without one shows the reviews as a row.
  await page.goto("/contact");
  // The reviews themselves, as a reader scrolls to them: the carousel loads once they are near the view.
  await page.locator(".review-carousel-frame").first().scrollIntoViewIfNeeded();
  const container = page.locator(".review-carousel .mantine-Carousel-container");
  await container.scrollIntoViewIfNeeded();
  // Keep the pointer away from the slides unless a test means to hover them.
  await page.mouse.move(0, 0);
  return { toggle: page.getByTestId("reviews-play-pause"), live: page.getByTestId("reviews-live") };
}

/** Which review is showing: the carousel's own announcement names it ("Review N of M, …"). */
const shown = async (live: Locator) => /^Review \d+/.exec((await live.textContent()) ?? "")?.[0];

/** Asserts the review shown stays for longer than one autoplay turn (3 s). */
async function expectStill(page: Page, live: Locator): Promise<void> {
  const before = await shown(live);
  await page.waitForTimeout(4000);
  expect(await shown(live)).toBe(before);
}

async function expectAdvances(live: Locator): Promise<void> {
  const before = await shown(live);
  await expect.poll(() => shown(live), { timeout: 12_000 }).not.toBe(before);
}

test.describe("review carousel", () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  // Each waits out several 3 s turns: room for a loaded machine.
  test.describe.configure({ timeout: 90_000 });

  test("plays silently, pauses and plays by its button; a person's move is announced", async ({ page }) => {
    const { toggle, live } = await openCarousel(page);
    await expect(toggle).toHaveAccessibleName("Pause reviews");
    await expect(toggle).toBeVisible();
    await expect(live).toHaveAttribute("aria-live", "off");
    await expectAdvances(live);
    await expect(live).toHaveAttribute("aria-live", "off"); // it turned on its own: nothing read out
    // Mantine's own status ("Slide N of M", always polite) is not in the accessibility tree.
    await expect(page.locator(".review-carousel > [role=status]")).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAccessibleName("Play reviews");
    await page.mouse.move(0, 0);
    await expect(live).toHaveAttribute("aria-live", "polite");
    await expectStill(page, live);

    const before = await live.textContent();
    await page.getByRole("button", { name: "Next review" }).click();
    await expect(live).not.toHaveText(before ?? "");
    await expect(live).toHaveAttribute("aria-live", "polite");
    await expect(live).toContainText(/^Review \d+ of \d+/);

    await page.mouse.move(0, 0);
    await toggle.click();
    await expect(toggle).toHaveAccessibleName("Pause reviews");
    await page.mouse.move(0, 0);
    await expectAdvances(live);
    await expectNoAxeViolations(page);
  });

  test("holds while focus is in the carousel, and while the pointer is over it", async ({ page }) => {
    const { toggle, live } = await openCarousel(page);
    await page.getByRole("button", { name: "Next review" }).focus();
    await expect(live).toHaveAttribute("aria-live", "polite");
    await expectStill(page, live);
    await expect(toggle).toHaveAccessibleName("Pause reviews"); // held, not paused
    await toggle.focus(); // focus leaves the slides: it turns again
    await expectAdvances(live);

    await page.locator(".review-carousel").hover();
    await expectStill(page, live);
    await page.mouse.move(0, 0);
    await expectAdvances(live);
  });

  test.describe("reduced motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("never turns on its own; Play starts it", async ({ page }) => {
      const { toggle, live } = await openCarousel(page);
      await expect(toggle).toHaveAccessibleName("Play reviews");
      await expect(live).toHaveAttribute("aria-live", "polite");
      await expectStill(page, live);
      await toggle.click();
      await page.mouse.move(0, 0);
      await expectAdvances(live);
    });
  });

  for (const js of [false, true])
    test.describe(js ? "on a page that runs no script (JavaScript on)" : "without JavaScript", () => {
      test.use({ javaScriptEnabled: js });

      for (const width of [1280, 390]) {
        test(`every review is there in a row that scrolls, with no dead control (${width} px)`, async ({ page }) => {
          await page.setViewportSize({ width, height: 900 });
          await page.goto("/about-us");
          const region = page.getByRole("region", { name: "Customer reviews" });
          const slides = region.locator(".review-slide");
          expect(await slides.count()).toBeGreaterThan(1);
          await expect(slides.first()).toBeVisible();
          await expect(page.locator(".footer-reviews button")).toHaveCount(0);
          // Focusable and scrollable by keyboard.
          await region.focus();
          await expect(region).toBeFocused();
          const scroll = () => region.evaluate((el) => el.scrollLeft);
          expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          await page.keyboard.press("ArrowRight");
          await expect.poll(scroll).toBeGreaterThan(0);
        });
      }
    });
});
