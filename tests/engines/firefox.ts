import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { describe, FOCUSED_IN_PAGE, inPage, spec, until, type Driver, type Focused, type Target } from "./driver";

/** Debian's Firefox ESR (`apt-get install firefox-esr`); never a browser of puppeteer's own. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

/** Firefox ESR, headless, driven by puppeteer-core over WebDriver BiDi. */
export async function firefox(baseUrl: string): Promise<Driver> {
  const browser: Browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: FIREFOX_PATH,
    headless: true,
    // The profile's own start-up fetches (updates, telemetry, remote settings): none of them reach anything here.
    extraPrefsFirefox: {
      "app.update.enabled": false,
      "browser.shell.checkDefaultBrowser": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "toolkit.telemetry.enabled": false,
      "network.captive-portal-service.enabled": false,
      // A phone's scrollbars, drawn over the page: the page keeps its whole 390 px.
      "ui.useOverlayScrollbars": 1,
    },
  });
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  page.setDefaultTimeout(20_000);
  page.setDefaultNavigationTimeout(30_000);

  async function element(target: Target, prepare = "(el) => el"): Promise<ElementHandle<Element>> {
    const t = spec(target);
    return until(describe(target), async () => {
      const handle = await page.evaluateHandle(
        inPage(`((t) => { const el = locate(t); return el && (${prepare})(el); })`, t),
      );
      const el = handle.asElement() as ElementHandle<Element> | null;
      if (el) return el;
      await handle.dispose();
      return undefined;
    });
  }

  return {
    engine: "firefox",
    async goto(path) {
      const response = await page.goto(new URL(path, baseUrl).href, { waitUntil: "load" });
      // A page without a form of its own runs no script: it is whole at load.
      if (response?.headers()["content-type"]?.startsWith("text/html") && (await page.$('script[type="module"]')))
        await page.waitForSelector("html[data-hydrated]", { timeout: 20_000 });
    },
    async click(target) {
      const el = await element(target, "(el) => { centre(el); return el; }");
      await el.click();
      await el.dispose();
    },
    async fill(target, value) {
      const el = await element(target, "(el) => { centre(el); selectContents(el); return el; }");
      if (value === "") await el.press("Backspace");
      else await el.type(value);
      await el.dispose();
    },
    async select(target, option) {
      const el = await element(target, "(el) => { centre(el); return el; }");
      const value = await page.evaluate(inPage(`((t, words) => optionValue(locate(t), words))`, spec(target), option));
      if (typeof value !== "string") throw new Error(`${describe(target)} has no option "${option}"`);
      await el.select(value);
      await el.dispose();
    },
    async text(target) {
      const t = spec(target);
      return until(describe(target), async () => {
        const text = await page.evaluate(
          inPage(`((t) => { const el = locate(t); return el ? el.innerText : null; })`, t),
        );
        return typeof text === "string" ? text : undefined;
      });
    },
    async attr(target, name) {
      const t = spec(target);
      return until(describe(target), async () => {
        const found = await page.evaluate(
          inPage(
            `((t, name) => { const el = locate(t); if (!el) return null; return { value: name === "value" ? el.value : el.getAttribute(name) }; })`,
            t,
            name,
          ),
        );
        return found ? (found as { value: string | null }).value : undefined;
      });
    },
    async waitFor(target, options = {}) {
      const t = spec(target);
      await until(
        `${describe(target)}${options.gone ? " to go" : ""}`,
        async () => {
          const there = await page.evaluate(inPage(`((t) => locate(t) !== null)`, t));
          return there === !options.gone ? true : undefined;
        },
        options.timeout,
      );
    },
    async screenshot(file, target) {
      if (target) await (await element(target, "(el) => { toTop(el); return el; }")).dispose();
      await new Promise((resolve) => setTimeout(resolve, 300)); // what the scroll revealed, drawn
      await page.screenshot({ path: file as `${string}.png` });
    },
    async setViewport(width, height) {
      await page.setViewport({ width, height });
    },
    async url() {
      return page.url();
    },
    async focused() {
      return (await page.evaluate(FOCUSED_IN_PAGE)) as Focused | null;
    },
    async close() {
      await browser.close();
    },
  };
}
