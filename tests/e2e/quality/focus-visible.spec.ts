import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "../support/test";
import { asNewVisitor, open } from "../forms/helpers";

/**
 * Focus you can see (WCAG 2.2: 2.4.7 focus visible, 2.4.13 focus appearance): a field in error,
 * reached from the error summary, draws a 2 px ring in light and dark. Read from the pixels of a
 * screenshot (not only the computed style): the ring's colour is found beside the field, at 3:1
 * or more against the halo inside it and against the page around it; and axe's focus rules pass.
 */

/** WCAG's relative luminance and contrast ratio, of "rgb(r, g, b)"-like triples. */
function luminance([r, g, b]: number[]): number {
  const c = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * c(r!) + 0.7152 * c(g!) + 0.0722 * c(b!);
}
const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** The pixels of a horizontal line through the field's middle, from 8 px left of it to its inside, as [r, g, b]. */
async function pixelsLeftOf(page: Page, field: Locator): Promise<number[][]> {
  const box = (await field.boundingBox())!;
  const y = Math.round(box.y + box.height / 2);
  const x = Math.round(box.x) - 8;
  const shot = await page.screenshot({ clip: { x, y, width: 12, height: 1 }, animations: "disabled" });
  return page.evaluate(async (png) => {
    const img = new Image();
    img.src = `data:image/png;base64,${png}`;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, 1).data;
    const out: number[][] = [];
    for (let i = 0; i < img.width; i++) out.push([data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!]);
    return out;
  }, shot.toString("base64"));
}

for (const [colorScheme, javaScriptEnabled] of [
  ["light", false],
  ["dark", false],
  ["light", true],
  ["dark", true],
] as const) {
  test.describe(`focus visible (${colorScheme}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ colorScheme, javaScriptEnabled, deviceScaleFactor: 1 });

    test("a field in error, reached from the summary, shows a 2 px ring at 3:1 against what is around it", async ({
      page,
    }) => {
      await asNewVisitor(page);
      await open(page, "/contact", javaScriptEnabled);
      const form = page.getByRole("form", { name: "Contact form" });
      await form.locator("button.form-submit").click();
      const summary = page.locator(".error-summary");
      await expect(summary).toBeFocused();
      // As a keyboard user follows the summary: its first link, Enter.
      await summary.getByRole("link").first().focus();
      await page.keyboard.press("Enter");
      const focusedId = await page.evaluate(() => document.activeElement?.id ?? "");
      expect(focusedId).not.toBe("");
      const field = page.locator(`[id="${focusedId}"]`);
      await expect(field).toBeFocused();
      await expect(field).toHaveAttribute("aria-invalid", "true");

      const style = await field.evaluate((el) => {
        const s = getComputedStyle(el);
        return { style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor };
      });
      expect(style.style).toBe("solid");
      expect(style.width).toBe("2px");
      const ring = style.color.match(/\d+/g)!.slice(0, 3).map(Number);

      // On the screen: the ring's colour among the pixels just left of the field, with the page
      // outside it and the halo inside it.
      const line = await pixelsLeftOf(page, field);
      const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 24);
      const at = line.findIndex((p) => near(p, ring));
      expect(at, `the ring's colour ${style.color} drawn beside the field: ${JSON.stringify(line)}`).toBeGreaterThan(0);
      const outside = line[0]!;
      const inside = line[at + 2]!;
      expect(contrast(ring, outside), `ring against the page ${JSON.stringify(outside)}`).toBeGreaterThanOrEqual(3);
      expect(contrast(ring, inside), `ring against its halo ${JSON.stringify(inside)}`).toBeGreaterThanOrEqual(3);

      // The same field unfocused looks different: the ring is gone.
      await field.evaluate((el) => (el as HTMLElement).blur());
      const after = await pixelsLeftOf(page, field);
      expect(after.some((p) => near(p, ring))).toBe(false);

      if (!javaScriptEnabled) return; // axe runs in the page's JavaScript
      const axe = await new AxeBuilder({ page })
        .include("main form")
        .withRules(["focus-order-semantics", "color-contrast", "aria-valid-attr-value", "label"])
        .analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  });
}
