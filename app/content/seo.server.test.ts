import { describe, expect, it } from "vitest";
import { siteMap } from "~/shell/navigation";
import { contentRoutePaths } from "./route-paths";
import { publicPaths, robotsTxt, sitemapXml } from "./seo.server";

describe("sitemap.xml and robots.txt", () => {
  it("lists every public route of the site map once, with absolute URLs", () => {
    const xml = sitemapXml("https://dover.example.com");
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(new Set(locs).size).toBe(locs.length);
    const expected = new Set([
      "/",
      ...siteMap.flatMap((c) => c.links.filter((l) => !l.external && !l.personal).map((l) => l.to)),
    ]);
    const listed = new Set(locs.map((l) => l.replace("https://dover.example.com", "")));
    expect(listed).toEqual(expected);
    // One visitor's pages are linked from the footer but not offered to crawlers.
    expect(listed.has("/my-cart")).toBe(false);
    expect(listed.has("/checkout")).toBe(false);
    expect(listed.has("/shop")).toBe(true);
    for (const path of contentRoutePaths) expect(publicPaths()).toContain(path);
  });

  it("points crawlers at the site map and away from the API", () => {
    const txt = robotsTxt("https://dover.example.com");
    expect(txt).toContain("User-agent: *");
    expect(txt).toContain("Disallow: /api/");
    expect(txt).toContain("Sitemap: https://dover.example.com/sitemap.xml");
  });
});
