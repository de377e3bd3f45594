import { test as base, expect, type Page } from "@playwright/test";

/**
 * Playwright's `test`, whose `page.goto` returns once an HTML page has hydrated
 * when JavaScript is on (`<html data-hydrated>`, app/shell/hydrated.ts). The
 * page's scripts start after its first paint (docs/decisions/044), so the load
 * event no longer waits for them: without this, a test could click a menu
 * before React listens. A page without a form of its own carries no scripts
 * (app/shell/page-scripts.ts): it is whole at load. Pages with JavaScript off return at load, as before, and
 * so does a goto that asks to return at "commit" (a test of the page before its scripts).
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        if (
          options?.waitUntil !== "commit" &&
          response?.headers()["content-type"]?.startsWith("text/html") &&
          (await runsScripts(page))
        ) {
          await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 20_000 });
        }
        return response;
      };
    }
    await use(page);
  },
});

/** Whether the page carries the app's scripts (a page without a form of its own does not). */
export const runsScripts = async (page: Page) =>
  (await page.locator('script[type="module"], html[data-hydrated]').count()) > 0;

export { expect };
