import { expect, test } from "../support/test";

const CITIES = ["Saginaw", "Flint", "Pontiac", "Detroit", "Lansing", "Port Huron"];

for (const javaScriptEnabled of [false, true]) {
  test.describe(`service-area map, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("shows Michigan with a marker and a 50-mile circle for each of the six cities", async ({ page }) => {
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      await page.goto("/service-area");
      const map = page.getByRole("img", { name: "Map of our Michigan service area" });
      await expect(map).toBeVisible();
      await expect(map.locator(".map-michigan")).toHaveCount(1);
      const markers = map.locator(".map-marker");
      await expect(markers).toHaveCount(6);
      for (const [i, city] of CITIES.entries()) {
        await expect(markers.nth(i)).toHaveAttribute("data-city", city);
        await expect(markers.nth(i)).toContainText(city);
      }
      const circles = map.locator(".map-radius");
      await expect(circles).toHaveCount(6);
      for (const circle of await circles.all()) {
        const box = (await circle.boundingBox())!;
        expect(box.width).toBeGreaterThan(40);
        // A circle on the map stays round (Mercator is conformal).
        expect(Math.abs(box.width / box.height - 1)).toBeLessThan(0.03);
      }
      // Without a Maps key the offline map is the map: no loading state, nothing from Google.
      await expect(page.getByText("Loading...")).toHaveCount(0);
      await expect(page.getByTestId("service-map")).toHaveAttribute("data-state", "offline");
      await expect(page.getByRole("main").getByRole("listitem").filter({ hasText: "Port Huron" })).toBeVisible();
      expect(errors).toEqual([]);
    });
  });
}
