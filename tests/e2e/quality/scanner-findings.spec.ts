import { expect, test } from "../support/test";
import { e2eQuery, closeE2eSql } from "../support/db";
import { asNewVisitor } from "../forms/helpers";

/**
 * What outside scanners found (wapiti, sqlmap, pa11y, IBM's Equal Access checker), each sent
 * again: a hostile `back` never makes the colour form answer 500 and a non-ASCII path comes back
 * as UTF-8; the favicon has its type; a signed receipt is one payer's private page (no Referer,
 * never indexed, stored nowhere); the checkout's one-line address says so to autofill; a select's
 * chevron is hidden from screen readers; the footer's location cards are named by their heading.
 */
test.afterAll(closeE2eSql);

test.describe("found by scanners", () => {
  test.use({ javaScriptEnabled: false });

  test("the colour form answers every hostile back with a redirect on this site, never a 500", async ({ request }) => {
    const cases: Array<[string, string]> = [
      ["/café", "/caf%C3%A9"],
      ["/x\u0001y", "/x%01y"],
      ["/\u0100\u4e2d", "/%C4%80%E4%B8%AD"],
      ["/ok?q=\u00ff", "/ok?q=%C3%BF"],
      ["/\\\\evil.example", "/"],
      ["/\t/evil.example", "/"],
      ["javascript:alert(1)", "/"],
      ["/" + "a".repeat(3000), "/"],
    ];
    for (const [back, location] of cases) {
      const answer = await request.post("/color-scheme", { form: { scheme: "dark", back }, maxRedirects: 0 });
      expect(answer.status(), JSON.stringify(back)).toBe(303);
      expect(answer.headers()["location"], JSON.stringify(back)).toBe(location);
    }
  });

  test("the favicon is sent as an icon", async ({ request }) => {
    const answer = await request.get("/favicon.ico");
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/x-icon");
  });

  test("a signed receipt's page is private: no Referer, never indexed, stored nowhere", async ({ request }) => {
    for (const path of ["/pay-invoice/receipt/1?sig=forged", "/request-service/receipt/1?sig=forged"]) {
      const answer = await request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBeLessThan(500);
      expect(answer.headers()["referrer-policy"], path).toBe("no-referrer");
      expect(answer.headers()["x-robots-tag"], path).toBe("noindex");
      expect(answer.headers()["cache-control"], path).toBe("no-store");
    }
  });

  test("the checkout's one-line address is address-line1 to autofill; a select's chevron is hidden", async ({
    page,
  }) => {
    await asNewVisitor(page);
    const [product] = await e2eQuery<{ id: number }>(
      "select id from products where stock >= 20 and custom_fields = '[]'::jsonb order by id limit 1",
    );
    await page.goto(`/product/${product!.id}`);
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await page.goto("/checkout");
    const form = page.getByRole("form", { name: "Checkout form" });
    await expect(form.locator('input[name="address"]')).toHaveAttribute("autocomplete", "address-line1");
    await page.goto("/request-service?type=residential");
    const chevrons = page.locator("main svg.mantine-ComboboxChevron-chevron");
    expect(await chevrons.count()).toBeGreaterThan(0);
    for (const chevron of await chevrons.all()) await expect(chevron).toHaveAttribute("aria-hidden", "true");
  });

  test("the footer's location cards are named by their heading", async ({ page }) => {
    await page.goto("/");
    const cards = page.locator("footer article.location-card");
    expect(await cards.count()).toBeGreaterThan(0);
    for (const card of await cards.all()) {
      const heading = (await card.locator("h3").textContent())!.trim();
      await expect(page.getByRole("article", { name: heading })).toHaveCount(1);
    }
  });
});
