import { type Page } from "@playwright/test";
import { expect, runsScripts, test } from "../support/test";

// The navigation of SPEC §2, written out independently of app/shell/navigation.ts
// so that a change to the data that breaks the spec fails here.
const residential = [
  ["Schedule Service", "/request-service"],
  ["Request Quote", "/request-quote"],
  ["Garage Doors", "/residential-garage-doors"],
  ["Garage Door Openers", "/residential-garage-door-openers"],
  ["Entry Doors", "/residential-entry-doors"],
  ["Patio Doors", "/residential-patio-doors"],
  ["Windows", "/residential-windows"],
  ["Seamless Gutters", "/residential-seamless-gutters"],
  ["Vinyl Siding", "/residential-vinyl-siding"],
];
const commercial = [
  ["Sectional Garage Doors", "/commercial-sectional-garage-doors"],
  ["Rolling Steel Doors", "/commercial-rolling-steel-doors"],
  ["Commercial Openers", "/commercial-openers"],
  ["Loading Docks", "/commercial-loading-docks"],
  ["Hollow Metal Doors", "/commercial-hollow-metal-doors"],
  ["Bathroom Partitions", "/commercial-bathroom-partitions"],
  ["Commercial Schedule Service", "/request-service?type=commercial"],
  ["Commercial Mobile App", "/commercial-mobile-app"],
];
const connect = [
  ["Contact Us", "/contact"],
  ["About Us", "/about-us"],
  ["Service Areas", "/service-area"],
  ["Careers", "/careers"],
  ["Leave A Review", "/review"],
];

/** Every route of the SPEC §2 table (one product slug for the referral page). */
const specRoutes = [
  "/",
  "/shop",
  "/my-cart",
  "/contact",
  "/about-us",
  "/request-quote",
  "/request-service",
  "/commercial-schedule-service",
  "/service-area",
  "/careers",
  "/employment",
  "/discount-signup-2025",
  "/pay-invoice",
  "/review",
  "/refer-a-friend-referral-program-garage-doors",
  "/residential-garage-doors",
  "/residential-garage-door-openers",
  "/residential-entry-doors",
  "/residential-patio-doors",
  "/residential-seamless-gutters",
  "/residential-vinyl-siding",
  "/residential-windows",
  "/residential-garage-door-repairs",
  "/residential-garage-door-installation",
  "/commercial-sectional-garage-doors",
  "/commercial-rolling-steel-doors",
  "/commercial-loading-docks",
  "/commercial-hollow-metal-doors",
  "/commercial-bathroom-partitions",
  "/commercial-mobile-app",
  "/commercial-openers",
  "/commercial-openers-dock-door-operator",
  "/commercial-openers-heearhead-hoist-operator",
  "/commercial-openers-gearhead-trolley",
  "/commercial-openers-hoist-operator",
  "/commercial-openers-jackshaft",
  "/commercial-openers-trolley-operator",
];

async function linksOf(page: Page, selector: string) {
  return page
    .locator(selector)
    .evaluateAll((els) => els.map((a) => [a.textContent?.trim() ?? "", a.getAttribute("href") ?? ""]));
}

test.describe("desktop header", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("menus, top bar and Request Quote link exactly to the spec's routes", async ({ page }) => {
    await page.goto("/contact"); // a page that runs the app, which drives the menus
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    const logo = page.locator("header .logo-link");
    await expect(logo).toHaveAttribute("href", "/");
    const logoBox = await logo.locator("img.logo-light").boundingBox();
    expect(logoBox!.height).toBeLessThanOrEqual(70);

    for (const [label, expected] of [
      ["Residential", residential],
      ["Commercial", commercial],
      ["Connect", connect],
    ] as const) {
      const trigger = nav.getByRole("button", { name: label });
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
      await trigger.click();
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      const list = nav.getByRole("list", { name: label });
      await expect(list).toBeVisible();
      expect(await linksOf(page, `nav[aria-label="Main"] ul[aria-label="${label}"] a`)).toEqual(expected);
      await page.keyboard.press("Escape");
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
    }

    await expect(page.locator(".mainbar .request-quote-btn")).toHaveAttribute("href", "/request-quote");
    const topbar = await linksOf(page, "[data-testid=topbar] nav a");
    expect(topbar.slice(0, 4)).toEqual([
      ["Schedule Service", "/request-service"],
      ["Get Quote", "/request-quote"],
      ["Pay Invoice", "/pay-invoice"],
      ["Shop", "/shop"],
    ]);
  });

  test("a menu link navigates on the client", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Connect" }).click();
    await page.getByRole("link", { name: "About Us" }).first().click();
    await expect(page).toHaveURL(/\/about-us$/);
  });
});

test.describe("mobile", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  for (const js of [true, false]) {
    test(`slide-in panel opens and its groups collapse (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: js });
      const page = await context.newPage();
      await page.goto("/");
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      // Only the four action buttons of the top bar show on mobile.
      await expect(page.locator("[data-testid=topbar] nav a:visible")).toHaveText([
        "Schedule Service",
        "Get Quote",
        "Pay Invoice",
        "Shop",
      ]);

      const panel = page.getByRole("navigation", { name: "Mobile" });
      await expect(panel).toBeHidden();
      await page.locator(".mobile-menu-toggle").click();
      await expect(panel).toBeVisible();

      for (const [group, links] of [
        ["Residential Products", residential],
        ["Commercial Products", commercial],
        ["Connect", connect],
      ] as const) {
        const details = panel.locator("details.mobile-group").filter({
          has: page.locator("summary", { hasText: group }),
        });
        const summary = details.locator("summary");
        const firstLink = panel.getByRole("link", { name: links[0]![0], exact: true });
        await expect(firstLink).toBeHidden();
        await summary.click();
        await expect(firstLink).toBeVisible();
        expect(
          await details
            .locator("a")
            .evaluateAll((els) => els.map((a) => [a.textContent?.trim(), a.getAttribute("href")])),
        ).toEqual(links);
        await summary.click();
        await expect(firstLink).toBeHidden();
      }

      const call = panel.getByRole("link", { name: /Call Now/ });
      await expect(call).toHaveAttribute("href", /^tel:\+1\d{10}$/);
      const quote = panel.getByRole("link", { name: "Request Quote" });
      await expect(quote).toHaveAttribute("href", "/request-quote");
      const [panelBox, quoteBox] = [await panel.boundingBox(), await quote.boundingBox()];
      expect(quoteBox!.width).toBeGreaterThan(panelBox!.width - 40);
      await context.close();
    });
  }

  test("a panel opened before the scripts have run stays open once they have (a slow phone)", async ({ page }) => {
    // Hold the app's entry script until the visitor has opened the menu.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/entry.client-*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/contact", { waitUntil: "commit" }); // a page that runs the app
    const toggle = page.locator(".mobile-menu-toggle");
    await toggle.click();
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeVisible();
    release();
    // The app has run (hydrated).
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
    await expect(panel).toBeVisible();
    // And it still closes on a navigation.
    await panel.getByRole("link", { name: "Home" }).click();
    await expect(panel).toBeHidden();
  });
});

test("the floating call button is on every page", async ({ page }) => {
  for (const path of ["/", "/no-such-page", "/about-us"]) {
    await page.goto(path);
    await expect(page.getByRole("link", { name: /^Call us/ })).toHaveAttribute("href", /^tel:/);
  }
});

/** Form controls and links under the call button at each scroll position of the page (none expected). */
async function controlsUnderCallButton(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const button = document.querySelector(".floating-call")!;
    const found = new Set<string>();
    for (let y = 0; y < document.documentElement.scrollHeight; y += 80) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const r = button.getBoundingClientRect();
      for (const [x, py] of [
        [r.left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ] as const) {
        const control = document
          .elementsFromPoint(x, py)
          .find((e) => !button.contains(e) && e.matches("a, button, input, select, textarea, label"));
        if (control) found.add(`${control.tagName} ${control.getAttribute("name") ?? control.textContent?.trim()}`);
      }
    }
    return [...found];
  });
}

test.describe("the call button never covers content or form controls (DECISIONS 6)", () => {
  for (const javaScriptEnabled of [true, false]) {
    test.describe(`phone width, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled, viewport: { width: 390, height: 844 } });

      test("a bar whose height the page keeps free, which steps aside while a field is typed in", async ({ page }) => {
        await page.goto("/contact");
        const bar = page.getByRole("link", { name: /^Call us/ });
        await expect(bar).toBeVisible();
        // The end of the page stops above the bar.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const barTop = (await bar.boundingBox())!.y;
        const footer = (await page.locator("footer").last().boundingBox())!;
        expect(footer.y + footer.height).toBeLessThanOrEqual(barTop + 0.5);
        // Typing in a field: the bar is gone, and comes back when the field is left.
        const field = page.getByRole("textbox", { name: /First Name/ });
        await field.focus();
        await expect(bar).toBeHidden();
        await page.locator("h1").click();
        await expect(bar).toBeVisible();
      });
    });
  }

  test.describe("wide screen", () => {
    test.use({ viewport: { width: 1440, height: 900 } });

    test("a round button in the margin, over no form control or link of the widest forms", async ({ page }) => {
      for (const path of ["/pay-invoice", "/request-service?type=residential", "/"]) {
        await page.goto(path);
        expect(await controlsUnderCallButton(page), path).toEqual([]);
      }
    });
  });
});

test("the footer site map links every route of the spec", async ({ page }) => {
  await page.goto("/");
  const hrefs = await page
    .getByRole("navigation", { name: "Site map" })
    .locator("a")
    .evaluateAll((els) => els.map((a) => a.getAttribute("href")));
  for (const route of specRoutes) expect(hrefs, `site map lacks ${route}`).toContain(route);
});

test("footer: reviews, four locations, emergency line, social links, copyright year", async ({ page }) => {
  await page.goto("/");
  const footer = page.locator("footer.site-footer");
  await expect(footer.getByRole("heading", { name: "What Our Customers Say" })).toBeVisible();
  await expect(footer.locator(".review-slide").first()).toContainText(/\w+/);
  const cards = footer.locator(".location-card");
  await expect(cards).toHaveCount(4);
  await expect(cards.locator("h3")).toHaveText(["Flint Showroom", "Saginaw Showroom", "Lansing", "Pontiac"]);
  await expect(cards.filter({ hasText: "Mon–Fri" })).toHaveCount(2);
  await expect(cards.getByRole("link", { name: /Get Directions/ })).toHaveCount(4);
  await expect(footer.getByRole("heading", { name: "24/7 Emergency Service" })).toBeVisible();
  await expect(footer.getByRole("list", { name: "Social media" }).getByRole("link")).toHaveText([
    "Facebook",
    "Instagram",
    "Twitter",
    "LinkedIn",
    "Pinterest",
    "TikTok",
  ]);
  await expect(footer.locator(".copyright")).toContainText(`© ${new Date().getFullYear()}`);
});

test("the review carousel loads when the footer comes near, then advances by itself", async ({ page }) => {
  const carouselRequests: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/ReviewCarousel-[^/]+\.js$/.test(r.url())) carouselRequests.push(r.url());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/contact", { waitUntil: "networkidle" }); // a page that runs the app
  // Far above the footer: the reviews are server markup and the carousel's code is not fetched.
  await expect(page.locator(".review-carousel--static")).toHaveCount(1);
  expect(carouselRequests).toEqual([]);

  await page.locator(".review-carousel-frame").first().scrollIntoViewIfNeeded();
  const container = page.locator(".review-carousel .mantine-Carousel-container");
  await container.scrollIntoViewIfNeeded();
  expect(carouselRequests).toHaveLength(1);
  const before = await container.getAttribute("style");
  await expect.poll(async () => container.getAttribute("style"), { timeout: 8000 }).not.toBe(before);
});

test.describe("colour mode", () => {
  test("toggles, persists across a reload and follows a second tab", async ({ context }) => {
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/contact"); // pages that run the app (a page without a form follows on its next load)
    const html = page.locator("html");
    const toggle = page.getByTestId("color-scheme-toggle");
    await expect(toggle).toBeEnabled();
    await expect(toggle).toHaveAttribute("data-scheme", "auto");
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "light");

    await toggle.click(); // auto → light
    await expect(toggle).toHaveAttribute("data-scheme", "light");
    await toggle.click(); // light → dark
    await expect(toggle).toHaveAttribute("data-scheme", "dark");
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "dark");

    await page.reload();
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "dark");

    const second = await context.newPage();
    await second.emulateMedia({ colorScheme: "light" });
    await second.goto("/pay-invoice");
    await expect(second.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

    // A change in one tab reaches the other.
    await page.getByTestId("color-scheme-toggle").click(); // dark → system (light OS)
    await expect(second.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  });

  test("a page with a form keeps the visitor's choice when the operating system changes", async ({ page }) => {
    // The form has its own Mantine provider; it must follow the header's toggle, not its first reading.
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/contact");
    await expect(page.getByLabel("First Name")).toBeVisible();
    const toggle = page.getByTestId("color-scheme-toggle");
    await expect(toggle).toBeEnabled();
    await toggle.click(); // auto → light
    await toggle.click(); // light → dark
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    await toggle.click(); // dark → system (light OS)
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  });

  test("system mode follows the operating system, with the app and without it", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/contact");
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");

    // A page without a form runs no script: "auto" stands, and CSS follows the OS.
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "auto");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(background).not.toBe("rgb(255, 255, 255)");
  });
});

test("on a phone the home banner (300 px high) shows its whole subtitle, not a clamped one", async ({ browser }) => {
  for (const width of [320, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 740 }, isMobile: true });
    await page.goto("/");
    const subtitle = page.locator(".banner--full .banner-subtitle");
    await expect(subtitle).toBeVisible();
    const cut = await subtitle.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    expect(cut, `subtitle cut short at ${width} px`).toBe(false);
    expect((await page.locator(".banner--full").boundingBox())!.height).toBe(300);
    await page.close();
  }
});

test("unknown paths show the home content with status 404", async ({ page }) => {
  const response = await page.goto("/this/page/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Increase Your Home's Value and Curb Appeal");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/$/);
});

test("unknown paths share one rendered 404 document, each answer with its own nonce, and no script", async ({
  page,
  request,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const nonceOf = (html: string) => /<script [^>]*nonce="([^"]+)"/.exec(html)?.[1] ?? "";
  const cspNonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

  // Both kinds of unknown path: deeper ones (the "*" route) and one-segment ones (":slug").
  for (const [first, second] of [
    [`/probe-${tag}/a/b`, `/wp-admin-${tag}/setup.php?step=1`],
    [`/probe-${tag}.php`, `/.env-${tag}`],
  ]) {
    const a = await request.get(first!);
    const b = await request.get(second!);
    expect([a.status(), b.status()]).toEqual([404, 404]);
    expect(b.headers()["x-page-cache"]).toBe("hit");
    const [htmlA, htmlB] = [await a.text(), await b.text()];
    const [nonceA, nonceB] = [nonceOf(htmlA), nonceOf(htmlB)];
    expect(nonceB).not.toBe(nonceA);
    expect(cspNonceOf(b.headers()["content-security-policy"])).toBe(nonceB);
    expect(htmlB.replaceAll(nonceB, "N")).toBe(htmlA.replaceAll(nonceA, "N"));
    expect(htmlB).toContain("Increase Your Home&#x27;s Value and Curb Appeal");
  }

  // A referral page answers on the same route as one-segment unknown paths: never the 404 document.
  const referral = await request.get("/refer-a-friend-referral-program-windows");
  expect(referral.status()).toBe(200);
  expect(await referral.text()).not.toContain("Increase Your Home&#x27;s Value and Curb Appeal");

  // A visitor on a shared 404 document: no script of the app, its speculation rules allowed by
  // the answer's nonce, and its links lead on.
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  const response = await page.goto(`/probe-${tag}/visitor`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()["x-page-cache"]).toBe("hit");
  expect(await runsScripts(page)).toBe(false);
  await page.locator("footer").getByRole("link", { name: "Windows", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Replacement Windows");
  expect(blocked).toEqual([]);
});

test.describe("home page with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("renders complete: banner, blocks, both product sections, about section", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Increase Your Home's Value and Curb Appeal");
    await expect(page.locator(".banner").getByRole("link", { name: "Request a Quote" })).toHaveAttribute(
      "href",
      "/request-quote",
    );
    await expect(page.locator(".content-block")).toHaveCount(3);

    await expect(page.getByRole("heading", { name: "PRODUCTS AND SERVICES FOR YOUR HOME" })).toBeVisible();
    const res = page.getByTestId("residential-cards").locator(":scope > li");
    await expect(res).toHaveCount(8);
    await expect(res.locator("h3")).toHaveText([
      "Garage Doors",
      "Entry Doors",
      "Patio Doors",
      "Windows",
      "Seamless Gutters",
      "Vinyl Siding",
      "Openers & Accessories",
      "Schedule Service",
    ]);
    expect(
      await res.locator("a.product-card-link").evaluateAll((els) => els.map((a) => a.getAttribute("href"))),
    ).toEqual([
      "/residential-garage-doors",
      "/residential-entry-doors",
      "/residential-patio-doors",
      "/residential-windows",
      "/residential-seamless-gutters",
      "/residential-vinyl-siding",
      "/residential-garage-door-openers",
      "/request-quote",
    ]);
    for (const card of await res.all()) await expect(card.locator(".feature-list li")).toHaveCount(4);

    await expect(page.getByRole("heading", { name: "DOVER COMMERCIAL PRODUCTS AND SERVICES" })).toBeVisible();
    await expect(page.getByText("Trusted Solutions for Every Business Entrance")).toBeVisible();
    const com = page.getByTestId("commercial-cards").locator(":scope > li");
    await expect(com.locator("h3")).toHaveText([
      "Sectional Doors",
      "Rolling Steel Doors",
      "Loading Docks",
      "Dock Levelers",
      "Commercial Openers",
      "Hollow Metal Doors",
      "Bathroom Partitions",
      "Commercial Service",
    ]);
    expect(
      await com.locator("a.product-card-link").evaluateAll((els) => els.map((a) => a.getAttribute("href"))),
    ).toEqual([
      "/commercial-sectional-garage-doors",
      "/commercial-rolling-steel-doors",
      "/commercial-loading-docks",
      "/commercial-loading-docks",
      "/commercial-openers",
      "/commercial-hollow-metal-doors",
      "/commercial-bathroom-partitions",
      "/request-quote",
    ]);
    await expect(com.filter({ hasText: "24-hour emergency repair" })).toHaveCount(1);

    const design = page.getByRole("link", { name: /Design Your Door Online/ });
    await expect(design).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("link", { name: "Browse Door Styles" })).toHaveAttribute("href", "#style");
    await expect(page.locator("#style")).toBeVisible();
    // The footer shows a review without the carousel's JavaScript.
    const review = page.locator("footer .review-slide blockquote").first();
    await review.scrollIntoViewIfNeeded();
    await expect(review).toBeVisible();
    // Nothing is hidden waiting for a scroll animation that will never run.
    await expect(page.locator('[data-reveal="pending"]')).toHaveCount(0);
  });

  test("cards sit 4 / 2 / 1 per row on large / medium / small screens", async ({ page }) => {
    for (const [width, perRow] of [
      [1366, 4],
      [800, 2],
      [390, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const tops = await page
        .getByTestId("residential-cards")
        .locator(":scope > li")
        .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
      expect(tops.filter((t) => t === tops[0]).length, `at ${width}px`).toBe(perRow);
    }
  });
});

test("page head: title, description, canonical, Open Graph and Twitter tags", async ({ page, baseURL }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Dover Doors & Windows/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/`);
  await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute("content", "Dover Doors & Windows");
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}/`);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^http/);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
});

test("shell links navigate in the page once the app runs, and prefetch the page a visitor points at", async ({
  page,
}) => {
  await page.goto("/contact"); // a page that runs the app
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  // Mark this document: a full reload would lose the mark.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  const link = page.locator("footer").getByRole("link", { name: "Windows", exact: true }).first();
  await expect(page.locator('link[rel="prefetch"]')).toHaveCount(0);
  await link.hover();
  await expect(page.locator('link[rel="prefetch"][href^="/residential-windows.data"]')).toHaveCount(1);
  await link.click();
  await expect(page).toHaveURL(/\/residential-windows$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Replacement Windows");
  // Same document: a client-side navigation, not a reload.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  // Keyboard: Enter on a focused header link does the same.
  await page.locator("header a.request-quote-btn").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/request-quote$/);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
});
