import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { addDays, asNewVisitor, serviceDayButton, serviceDayName, serviceSaturday, todayInDetroit } from "./helpers";

/**
 * The residential booking without the jump (issue 31 item 4, docs/decisions/064): on a
 * throttled phone the calendar takes the native inputs' place after hydration without moving
 * anything (cumulative layout shift 0); each day says its lowest and highest price in labels of
 * 12 px at least, seven days to a row on 360 and 390 px phones; without JavaScript "Show price"
 * refuses a past day beside the date.
 */

const PATH = "/request-service?type=residential";
/** A weekday of a week no other spec books (they take Saturdays): its evening costs more. */
const WEEKDAY = [3, 4, 2]
  .map((n) => addDays(serviceSaturday(4), n))
  .find((d) => !["01-01", "07-04", "12-25"].includes(d.slice(5)))!;
const SATURDAY = serviceSaturday(4);

function form(page: Page): Locator {
  return page.getByRole("form", { name: "Residential service booking form" });
}

declare global {
  interface Window {
    /** Layout shifts not caused by input since the document started: what moved, and from where to where. */
    __layoutShifts: { value: number; moved: string[] }[];
  }
}

test.describe("a throttled phone, JavaScript on", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the calendar replaces the native date and time without moving the page: layout shift 0", async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    await asNewVisitor(page);
    await page.addInitScript(() => {
      type Shift = PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      };
      const name = (node: Node | null) =>
        node instanceof Element
          ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}.${[...node.classList].join(".")}`
          : String(node?.nodeName);
      const rect = (r: DOMRectReadOnly) =>
        `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      window.__layoutShifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Shift[])
          if (!entry.hadRecentInput)
            window.__layoutShifts.push({
              value: entry.value,
              moved: entry.sources.map((s) => `${name(s.node)} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`),
            });
      }).observe({ type: "layout-shift", buffered: true });
    });
    // Lighthouse's slow phone: 1.6 Mbps down, 750 kbps up, 150 ms round trips, a CPU four times slower.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });

    // The page's code is held back until the visitor has scrolled to the visit's day, so the
    // calendar always replaces a native field in view (however fast the machine hydrates).
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(PATH, { waitUntil: "commit" });
    // The visitor scrolls to the visit's day while the page's code still loads: the native field is there first.
    const nativeDate = form(page).locator('input[type="date"]');
    await nativeDate.scrollIntoViewIfNeeded({ timeout: 30_000 });
    await expect(nativeDate).toBeVisible();
    await expect(page.getByRole("button", { name: "Show price" })).toBeVisible();

    // Then the code arrives and the calendar takes its place.
    release();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    const calendar = page.getByRole("group", { name: "Service Date" });
    await expect(calendar).toBeVisible({ timeout: 30_000 });
    await expect(nativeDate).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Show price" })).toHaveCount(0);
    // Two frames for the last layout to be reported.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.evaluate(() => window.__layoutShifts)).toEqual([]);
  });
});

for (const width of [360, 390]) {
  test.describe(`the calendar on a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 844 } });

    test("seven days to a row, each price in 12 px at least and inside its day; a weekday shows its range", async ({
      page,
    }) => {
      await asNewVisitor(page);
      await page.goto(PATH);
      const weekday = await serviceDayButton(page, WEEKDAY);
      await expect(weekday).toHaveAccessibleName(`${serviceDayName(WEEKDAY)}, $129.95 to $159.95`);
      // On a phone the range's second price drops its "$" to fit the day: "$129.95" over "–159.95".
      await expect(weekday).toContainText("$129.95–159.95", { useInnerText: true });
      const saturday = await serviceDayButton(page, SATURDAY);
      await expect(saturday).toHaveAccessibleName(`${serviceDayName(SATURDAY)}, $159.00`);

      const calendar = page.getByRole("group", { name: "Service Date" });
      const layout = await calendar.evaluate((group) => {
        const rows = [...group.querySelectorAll("tbody tr")];
        const prices = [...group.querySelectorAll("button span:last-child")].filter((p) => p.textContent);
        let outside = 0;
        for (const price of prices) {
          const day = price.parentElement!.getBoundingClientRect();
          const text = document.createRange();
          text.selectNodeContents(price);
          for (const line of text.getClientRects())
            if (line.width > 0 && (line.left < day.left - 0.5 || line.right > day.right + 0.5)) outside++;
        }
        return {
          columns: Math.max(...rows.map((row) => row.children.length)),
          smallestPx: Math.min(...prices.map((p) => parseFloat(getComputedStyle(p).fontSize))),
          outside,
          pageWider: document.documentElement.scrollWidth > window.innerWidth,
        };
      });
      expect(layout).toEqual({ columns: 7, smallestPx: expect.any(Number), outside: 0, pageWider: false });
      expect(layout.smallestPx).toBeGreaterThanOrEqual(12);
    });
  });
}

test.describe("a desktop, JavaScript on", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a weekday shows the lowest and highest price of its windows; a Saturday its one price", async ({ page }) => {
    await asNewVisitor(page);
    await page.goto(PATH);
    const weekday = await serviceDayButton(page, WEEKDAY);
    await expect(weekday).toContainText("$129.95–$159.95", { useInnerText: true });
    await expect(weekday).toHaveAccessibleName(`${serviceDayName(WEEKDAY)}, $129.95 to $159.95`);
    const saturday = await serviceDayButton(page, SATURDAY);
    await expect(saturday).toContainText("$159.00", { useInnerText: true });
    await expect(saturday).not.toContainText("–");
  });
});

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the native date, time and Show price, laid out as before; Show price refuses a past day beside the date", async ({
    page,
  }) => {
    await asNewVisitor(page);
    await page.goto(PATH);
    const f = form(page);
    const date = f.getByLabel("Service Date");
    // The calendar's room is held only where scripts run: here the time sits beside the date, as it always has.
    const [dateBox, timeBox] = [await date.boundingBox(), await f.getByLabel("Service Time").boundingBox()];
    expect(Math.abs(dateBox!.y - timeBox!.y)).toBeLessThan(1);
    await expect(f.getByText("Choose a day and a time to see the total.")).toBeHidden();

    const yesterday = addDays(todayInDetroit(), -1);
    await date.fill(yesterday);
    await f.getByRole("button", { name: "Show price" }).click();
    await expect(f.getByText("Please choose today or a later date.")).toBeVisible();
    await expect(date).toHaveValue(yesterday);
    await expect(date).toHaveAttribute("aria-invalid", "true");

    // A weekday: its day price and its dearer evening.
    await date.fill(WEEKDAY);
    await f.getByRole("button", { name: "Show price" }).click();
    await expect(f.getByText("Price: $129.95 ($159.95 for the evening)")).toBeVisible();
    await expect(f.getByText("Please choose today or a later date.")).toHaveCount(0);
  });
});
