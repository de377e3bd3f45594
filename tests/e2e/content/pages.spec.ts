import { expect, test } from "../support/test";
import { company } from "../../../app/lib/company";
import { operators } from "../../../app/content/data/operators";
import { contentPages, findContentPage } from "../../../app/content/pages";
import { contentRoutePaths } from "../../../app/content/route-paths";
import { siteMap } from "../../../app/shell/navigation";
import { E2E_PORT } from "../support/server";
import { canonicalOf, h1s, jsonLd, metaContent, titleOf } from "./support/html";

const SITE = `http://localhost:${E2E_PORT}`;
const REFER = "/refer-a-friend-referral-program-garage-doors";

test.describe("content routes", () => {
  test("every content route answers 200 with its heading, its own title and canonical", async ({ request }) => {
    const titles = new Map<string, string>();
    for (const path of [...contentRoutePaths, REFER]) {
      const page = findContentPage(path)!;
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const html = await res.text();
      expect(h1s(html), path).toEqual([page.banner.title]);
      const title = titleOf(html)!;
      expect(title, path).toBe(`${page.title} | ${company.name}`);
      expect(titles.has(title), `${path} shares its title with ${titles.get(title)}`).toBe(false);
      titles.set(title, path);
      expect(canonicalOf(html), path).toBe(`${SITE}${path}`);
      expect(metaContent(html, "description"), path).toBe(page.description);
      expect(metaContent(html, "og:title"), path).toBe(title);
      expect(metaContent(html, "og:url"), path).toBe(`${SITE}${path}`);
      expect(metaContent(html, "og:image"), path).toMatch(/^http/);
      expect(metaContent(html, "twitter:card"), path).toBe("summary_large_image");
      expect(metaContent(html, "twitter:title"), path).toBe(title);
      // The footer is on every content page.
      expect(html, path).toContain('class="site-footer"');
    }
  });

  test("client-side navigation between content pages renders the next page", async ({ page }) => {
    await page.goto("/commercial-openers");
    await page.waitForFunction(
      () => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules !== undefined,
    );
    await page.getByRole("link", { name: "View Jackshaft Operator" }).click();
    await expect(page).toHaveURL(/\/commercial-openers-jackshaft$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jackshaft Operator");
    await expect(page).toHaveTitle(`Jackshaft Operator | Commercial Openers | ${company.name}`);
    await page.getByRole("link", { name: "Compare All Operators" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Commercial Door Openers");
    await expect(page.getByText("We could not find that page")).toHaveCount(0);
  });

  test("the operator pages use the spec's slugs, including the misspelled one", async ({ request }) => {
    const res = await request.get("/commercial-openers-heearhead-hoist-operator");
    expect(res.status()).toBe(200);
    expect(h1s(await res.text())).toEqual(["Gearhead Hoist Operator"]);
    expect((await request.get("/commercial-openers-gearhead-hoist-operator")).status()).toBe(404);
  });

  test("/contact-us moves permanently to /contact", async ({ request }) => {
    const res = await request.get("/contact-us", { maxRedirects: 0 });
    expect(res.status()).toBe(301);
    expect(new URL(res.headers()["location"]!, SITE).pathname).toBe("/contact");
  });

  test("any referral product slug shows the review page; other unknown paths show home with 404", async ({
    request,
  }) => {
    const refer = await request.get("/refer-a-friend-referral-program-seamless-gutters");
    expect(refer.status()).toBe(200);
    const html = await refer.text();
    expect(h1s(html)).toEqual(["Refer a Friend, Earn Up to $150"]);
    expect(html).toContain("Review One of Our Locations");

    const unknown = await request.get("/no-such-page-here");
    expect(unknown.status()).toBe(404);
    const body = await unknown.text();
    expect(h1s(body)).toEqual(["Increase Your Home's Value and Curb Appeal"]);
    expect(metaContent(body, "robots")).toBe("noindex");
    expect(canonicalOf(body)).toBe(`${SITE}/`);
  });

  test("/sitemap.xml lists every public route and /robots.txt points to it", async ({ request }) => {
    const res = await request.get("/sitemap.xml");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/xml");
    const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(SITE, ""));
    // One visitor's pages (the cart, the checkout) are in the footer but not offered to crawlers.
    const publicRoutes = new Set(["/", ...siteMap.flatMap((c) => c.links.filter((l) => !l.personal).map((l) => l.to))]);
    expect(new Set(locs)).toEqual(publicRoutes);
    expect(locs).not.toContain("/my-cart");
    for (const path of contentRoutePaths) expect(locs).toContain(path);

    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  test("Home and About carry the business JSON-LD with four locations and weekday hours for Flint and Saginaw", async ({
    request,
  }) => {
    for (const path of ["/", "/about-us"]) {
      const [data] = jsonLd(await (await request.get(path)).text()) as {
        "@type": string;
        foundingDate: string;
        department: {
          name: string;
          openingHoursSpecification?: { dayOfWeek: string[]; opens: string; closes: string }[];
        }[];
      }[];
      expect(data?.["@type"], path).toBe("HomeAndConstructionBusiness");
      expect(data?.foundingDate).toBe("1936-07-03");
      expect(data?.department).toHaveLength(4);
      const withHours = data!.department.filter((d) => d.openingHoursSpecification).map((d) => d.name);
      expect(withHours).toEqual([`${company.name}: Flint Showroom`, `${company.name}: Saginaw Showroom`]);
      expect(data!.department[0]!.openingHoursSpecification).toEqual([
        {
          "@type": "OpeningHoursSpecification",
          dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
          opens: "08:00",
          closes: "17:00",
        },
      ]);
    }
    expect(jsonLd(await (await request.get("/careers")).text())).toEqual([]);
  });
});

test.describe("what visitors see on the product pages", () => {
  test("garage doors: three styles, repair and installation links, the design tool", async ({ page }) => {
    await page.goto("/residential-garage-doors");
    const styles = page.getByTestId("style-cards").getByRole("heading", { level: 3 });
    await expect(styles).toHaveText(["Traditional", "Country", "Modern"]);
    await expect(page.getByRole("main").getByRole("link", { name: "Garage Door Repairs" })).toHaveAttribute(
      "href",
      "/residential-garage-door-repairs",
    );
    await expect(page.getByRole("main").getByRole("link", { name: "Garage Door Installation" })).toHaveAttribute(
      "href",
      "/residential-garage-door-installation",
    );
    const tool = page
      .getByRole("main")
      .getByRole("link", { name: /Design Your Door Online/ })
      .first();
    await expect(tool).toHaveAttribute("href", company.designToolUrl);
    await expect(tool).toHaveAttribute("target", "_blank");
  });

  test("windows: eight window cards, the designer link and a catalog PDF that downloads", async ({ page, request }) => {
    await page.goto("/residential-windows");
    await expect(page.getByTestId("window-types-cards").getByRole("heading", { level: 3 })).toHaveText([
      "Awning",
      "Bay & Bow",
      "Casement",
      "Double Hung",
      "Garden",
      "Glider",
      "Hopper",
      "Picture",
    ]);
    await expect(page.getByRole("link", { name: /Try the Window Designer/ })).toHaveAttribute(
      "href",
      company.windowDesignerUrl,
    );
    const catalog = page.getByRole("link", { name: "Download the Window Catalog (PDF)" });
    await expect(catalog).toHaveAttribute("download", "dover-windows-catalog.pdf");
    const pdf = await request.get((await catalog.getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  });

  test("the residential claims and prices of the spec", async ({ page }) => {
    await page.goto("/residential-patio-doors");
    await expect(page.getByText("Starting at $2,999 installed").first()).toBeVisible();
    await page.goto("/residential-seamless-gutters");
    await expect(page.getByRole("heading", { name: "5 inch residential" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "6 inch commercial" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Over 20 Colours" })).toBeVisible();
    expect(await page.getByTestId("colour-swatches").getByRole("listitem").count()).toBeGreaterThan(20);
    await page.goto("/residential-garage-door-repairs");
    for (const claim of ["25-point inspection", "Same or next day service", "24/7 emergency service"]) {
      await expect(page.getByRole("heading", { name: claim, exact: true })).toBeVisible();
    }
    await expect(page.locator("#inspection li")).toHaveCount(25);
  });

  test("sectional doors: D-165 and D-200 with spec sheets that exist", async ({ page, request }) => {
    await page.goto("/commercial-sectional-garage-doors");
    await expect(page.getByRole("heading", { name: "D-165" })).toBeVisible();
    await expect(page.getByText("1 5/8 inch insulated steel sectional door")).toBeVisible();
    await expect(page.getByRole("heading", { name: "D-200" })).toBeVisible();
    await expect(page.getByText("2 inch high-performance insulated sectional door")).toBeVisible();
    for (const name of ["D-165 spec sheet (PDF)", "D-200 spec sheet (PDF)"]) {
      const href = await page.getByRole("link", { name }).getAttribute("href");
      const res = await request.get(href!);
      expect(res.status(), name).toBe(200);
      expect(res.headers()["content-type"]).toContain("application/pdf");
    }
  });

  test("commercial openers: six items, each detail page with the spec's figures and quote and service links", async ({
    page,
  }) => {
    await page.goto("/commercial-openers");
    const cards = page.getByTestId("operators-cards");
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText(operators.map((o) => o.name));
    for (const o of operators) {
      await expect(cards.getByRole("link", { name: `View ${o.name}` })).toHaveAttribute("href", o.path);
    }
    for (const o of operators) {
      await page.goto(o.path);
      const main = page.getByRole("main");
      await expect(main.locator('a[href="/request-quote"]').first()).toBeVisible();
      await expect(main.locator('a[href="/request-service"]').first()).toBeVisible();
      await expect(main.getByText("About 10,000 cycles on standard torsion springs")).toBeVisible();
      if (o.dutyCycle) await expect(main.getByText("25 cycles per hour")).toBeVisible();
      if (o.cyclesPerDay) await expect(main.getByText(o.cyclesPerDay, { exact: true })).toBeVisible();
      if (o.image === "dock-door-operator") {
        await expect(main.getByText("Opens 50% faster than a standard operator")).toBeVisible();
        await expect(main.getByText("Six months included")).toBeVisible();
      }
    }
  });

  test("mobile app: a demo video and both app stores", async ({ page, request }) => {
    await page.goto("/commercial-mobile-app");
    const video = page.getByRole("main").locator("video");
    await expect(video).toHaveAttribute("poster", /app-demo-poster\.svg$/);
    const src = await video.locator("source").getAttribute("src");
    const res = await request.get(src!);
    expect(res.status()).toBe(200);
    expect((await res.body()).length).toBeLessThan(400_000);
    await expect(page.getByRole("link", { name: /Download on the App Store/ }).first()).toHaveAttribute(
      "href",
      company.appStoreUrl,
    );
    await expect(page.getByRole("link", { name: /Get it on Google Play/ }).first()).toHaveAttribute(
      "href",
      company.playStoreUrl,
    );
  });

  test("product pages carry the simple quote form of their type, posting to the page itself", async ({ request }) => {
    const withSlot = contentPages.filter((p) => p.sections.some((s) => s.kind === "quote-form"));
    expect(withSlot.length).toBeGreaterThanOrEqual(15);
    for (const p of withSlot) {
      const html = await (await request.get(p.path)).text();
      const type = p.path.startsWith("/commercial") ? "commercial" : "residential";
      expect(html, p.path).toContain(`data-slot="quote-form" data-quote-type="${type}"`);
      const quoteType = type === "commercial" ? "Commercial" : "Residential";
      expect(html, p.path).toContain(`aria-label="${quoteType} quote request form"`);
      expect(html, p.path).toContain(`name="quote_type" value="${quoteType}"`);
      expect(html, p.path).toMatch(new RegExp(`<form[^>]*action="${p.path}(#[\\w-]+)?"[^>]*method="post"`));
    }
  });
});

test.describe("company pages", () => {
  test("about: founded 3 July 1936, mission, vision and a video", async ({ page }) => {
    await page.goto("/about-us");
    await expect(page.getByText("On 3 July 1936").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Our Mission" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Our Vision" })).toBeVisible();
    await expect(page.locator("#video video source")).toHaveAttribute("src", "/media/dover-story.webm");
  });

  test("review: four location cards with rating, rating text, address and a Google review link, and the prizes", async ({
    page,
  }) => {
    await page.goto("/review");
    const cards = page.getByTestId("location-review-cards").getByRole("listitem");
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText(["Flint", "Lansing", "Pontiac", "Saginaw"]);
    for (const card of await cards.all()) {
      await expect(card.getByRole("img", { name: /out of 5 stars/ })).toBeVisible();
      await expect(card.getByText(/out of 5 stars from \d+ Google reviews/)).toBeVisible();
      await expect(card.getByText(/, MI \d{5}$/)).toBeVisible();
      await expect(card.getByRole("link", { name: /on Google/ })).toHaveAttribute(
        "href",
        /^https:\/\/search\.google\.com\/local\/writereview\?placeid=/,
      );
    }
    await expect(page.getByText("$100 monthly review prize · $50 per referral · up to $150")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Earn up to $150 for Sharing Your Experience" })).toBeVisible();
    // The same reviews as the footer carousel.
    await expect(page.getByTestId("review-list").getByRole("listitem").first()).toBeVisible();
  });

  test("service area text links to the contact page", async ({ page }) => {
    await page.goto("/service-area");
    await expect(page.getByRole("main").getByRole("link", { name: "Contact us", exact: true })).toHaveAttribute(
      "href",
      "/contact",
    );
  });
});
