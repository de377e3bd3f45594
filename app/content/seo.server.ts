import { siteMap } from "~/shell/navigation";

/** Every public route, from the site map the footer shows (external links, one visitor's pages and duplicates dropped; "/" first). */
export function publicPaths(): string[] {
  const paths = siteMap.flatMap((col) => col.links.filter((l) => !l.external && !l.personal).map((l) => l.to));
  return [...new Set(["/", ...paths])];
}

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
}

/** /sitemap.xml (sitemaps.org protocol). */
export function sitemapXml(siteUrl: string): string {
  const urls = publicPaths()
    .map((p) => `  <url><loc>${xmlEscape(`${siteUrl}${p}`)}</loc></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** /robots.txt: everything public may be crawled except the JSON API. */
export function robotsTxt(siteUrl: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /api/", "", `Sitemap: ${siteUrl}/sitemap.xml`, ""].join("\n");
}
