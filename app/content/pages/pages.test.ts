import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { siteMap } from "~/shell/navigation";
import { company } from "~/lib/company";
import { applyMailto, openings } from "../data/openings";
import { operators } from "../data/operators";
import type { ContentPage, LinkRef, Section } from "../page-types";
import { contentRoutePaths, quoteFormPaths } from "../route-paths";
import { contentPages, findContentPage } from "./index";

const publicDir = path.resolve("public");
const page = (p: string) => findContentPage(p)!;
const text = (p: ContentPage) => JSON.stringify(p);

function sectionLinks(s: Section): LinkRef[] {
  switch (s.kind) {
    case "intro":
    case "gallery":
    case "video":
    case "specs":
      return [...(s.links ?? []), ...(s.kind === "gallery" ? s.items.flatMap((i) => (i.link ? [i.link] : [])) : [])];
    case "cta":
      return s.links;
    case "models":
      return s.models.map((m) => m.pdf);
    case "accordion":
      return s.items.flatMap((i) => (i.action ? [i.action] : []));
    default:
      return [];
  }
}

function assets(p: ContentPage): string[] {
  const list = [`/banner-images/${p.banner.image}`];
  for (const s of p.sections) {
    if (s.kind === "intro" && s.image) list.push(s.image.src);
    if (s.kind === "gallery") list.push(...s.items.map((i) => i.image));
    if (s.kind === "models") list.push(...s.models.flatMap((m) => [m.image.src, m.pdf.to]));
    if (s.kind === "video") list.push(s.video.src, s.video.poster);
    if (s.kind === "cards") list.push(...s.cards.map((c) => c.image));
    list.push(
      ...sectionLinks(s)
        .filter((l) => l.download)
        .map((l) => l.to),
    );
  }
  return list;
}

describe("content pages", () => {
  it("has exactly one page per content route, in step with routes.ts", () => {
    expect(contentPages.map((p) => p.path).sort()).toEqual([...contentRoutePaths].sort());
    expect(new Set(contentPages.map((p) => p.path)).size).toBe(contentPages.length);
  });

  it("gives every page its own title, description and h1", () => {
    const titles = contentPages.map((p) => p.title);
    const descriptions = contentPages.map((p) => p.description);
    const headings = contentPages.map((p) => p.banner.title);
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(new Set(headings).size).toBe(headings.length);
    for (const p of contentPages) {
      expect(p.description.length, p.path).toBeGreaterThanOrEqual(70);
      expect(p.description.length, p.path).toBeLessThanOrEqual(170);
      expect(p.banner.crumbs[0]).toEqual({ label: "Home", to: "/" });
    }
  });

  it("references only images, PDFs and videos that exist in public/", () => {
    for (const p of contentPages) {
      for (const asset of assets(p)) {
        expect(existsSync(path.join(publicDir, asset)), `${p.path}: ${asset}`).toBe(true);
      }
    }
  });

  it("links only to routes that exist or that the site map lists", () => {
    const known = new Set<string>([...contentRoutePaths, "/", ...siteMap.flatMap((c) => c.links.map((l) => l.to))]);
    for (const p of contentPages) {
      const internal = [
        ...p.sections.flatMap(sectionLinks).map((l) => l.to),
        ...[...text(p).matchAll(/\]\((\/[^)]*)\)/g)].map((m) => m[1]!),
      ].filter((to) => to.startsWith("/") && !/\.(pdf|webm)$/.test(to));
      for (const to of internal) expect(known.has(to.split("?")[0]!), `${p.path} → ${to}`).toBe(true);
    }
  });

  it("ships real PDFs", () => {
    for (const file of ["dover-windows-catalog.pdf", "d-165-spec-sheet.pdf", "d-200-spec-sheet.pdf"]) {
      const bytes = readFileSync(path.join(publicDir, "docs", file));
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      expect(bytes.subarray(-6).toString()).toContain("%%EOF");
      expect(bytes.length).toBeLessThan(50_000);
    }
  });

  it("states the spec's residential facts", () => {
    const doors = page("/residential-garage-doors");
    const styles = doors.sections.find((s) => s.kind === "gallery");
    expect(styles?.kind === "gallery" && styles.items.map((i) => i.name)).toEqual(["Traditional", "Country", "Modern"]);
    expect(text(doors)).toContain("/residential-garage-door-repairs");
    expect(text(doors)).toContain("/residential-garage-door-installation");
    expect(text(doors)).toContain(company.designToolUrl);
    expect(text(page("/residential-entry-doors"))).toContain(company.designToolUrl);
    expect(text(page("/residential-patio-doors"))).toContain("Starting at $2,999 installed");
    const gutters = text(page("/residential-seamless-gutters"));
    expect(gutters).toContain("5 inch residential");
    expect(gutters).toContain("6 inch commercial");
    expect(gutters).toContain("Over 20 Colours");
    const swatches = page("/residential-seamless-gutters").sections.find((s) => s.kind === "swatches");
    expect(swatches?.kind === "swatches" && swatches.colours.length).toBeGreaterThan(20);
    const windows = page("/residential-windows");
    const types = windows.sections.find((s) => s.kind === "gallery");
    expect(types?.kind === "gallery" && types.items.map((i) => i.name)).toEqual([
      "Awning",
      "Bay & Bow",
      "Casement",
      "Double Hung",
      "Garden",
      "Glider",
      "Hopper",
      "Picture",
    ]);
    expect(text(windows)).toContain(company.windowDesignerUrl);
    expect(text(windows)).toContain("/docs/dover-windows-catalog.pdf");
    const repairs = text(page("/residential-garage-door-repairs"));
    for (const claim of ["25-point inspection", "Same or next day service", "24/7 emergency service"])
      expect(repairs).toContain(claim);
    const inspection = page("/residential-garage-door-repairs").sections.find((s) => s.kind === "checklist");
    expect(inspection?.kind === "checklist" && inspection.items).toHaveLength(25);
  });

  it("states the spec's commercial facts", () => {
    const sectional = text(page("/commercial-sectional-garage-doors"));
    expect(sectional).toContain("D-165");
    expect(sectional).toContain("1 5/8 inch");
    expect(sectional).toContain("D-200");
    expect(sectional).toContain("2 inch");
    expect(sectional).toContain("/docs/d-165-spec-sheet.pdf");
    expect(sectional).toContain("/docs/d-200-spec-sheet.pdf");
    const app = text(page("/commercial-mobile-app"));
    expect(app).toContain(company.appStoreUrl);
    expect(app).toContain(company.playStoreUrl);
    expect(app).toContain(".webm");
    const hollow = page("/commercial-hollow-metal-doors");
    expect(hollow.sections.some((s) => s.kind === "features" && s.heading === "Key Benefits")).toBe(true);
    expect(hollow.sections.some((s) => s.kind === "accordion" && s.items.length >= 4)).toBe(true);
  });

  it("lists six operators under the spec's slugs, each with the spec's figures", () => {
    expect(operators.map((o) => o.path)).toEqual([
      "/commercial-openers-dock-door-operator",
      "/commercial-openers-heearhead-hoist-operator",
      "/commercial-openers-gearhead-trolley",
      "/commercial-openers-hoist-operator",
      "/commercial-openers-jackshaft",
      "/commercial-openers-trolley-operator",
    ]);
    const list = text(page("/commercial-openers"));
    for (const o of operators) expect(list).toContain(`"to":"${o.path}"`);
    for (const o of operators) {
      const t = text(page(o.path));
      expect(t).toContain('"to":"/request-quote"');
      expect(t).toContain('"to":"/request-service"');
      expect(t).toContain("10,000 cycles");
      if (o.image.startsWith("gearhead")) {
        expect(t).toContain("25 cycles per hour");
        expect(t).toContain("More than 90 cycles per day");
      } else if (o.image === "dock-door-operator") {
        expect(t).toContain("50% faster");
        expect(t).toContain("Six months");
      } else {
        expect(t).toContain("25 cycles per hour");
        expect(t).toContain("Up to 90 cycles per day");
      }
    }
  });

  it("lists the four openings with a prepared application e-mail and the technician's pay", () => {
    expect(openings.map((o) => o.title)).toEqual([
      "Administrative Assistant",
      "Accounting and Bookkeeping",
      "Commercial Door Technician",
      "Sales Representative",
    ]);
    expect(openings.find((o) => o.title === "Commercial Door Technician")?.pay).toBe(
      "$19-28 per hour plus a monthly bonus",
    );
    const mailto = new URL(applyMailto("Sales Representative"));
    expect(mailto.protocol).toBe("mailto:");
    expect(mailto.pathname).toBe(company.careersEmail);
    expect(mailto.searchParams.get("subject")).toBe("Sales Representative");
  });

  it("tells the company story and the referral programme", () => {
    const about = text(page("/about-us"));
    expect(about).toContain("3 July 1936");
    expect(about).toContain("Our Mission");
    expect(about).toContain("Our Vision");
    const review = text(page("/review"));
    for (const figure of ["$100", "$50", "$150"]) expect(review).toContain(figure);
  });

  it("serves the review page for any referral product slug (DECISIONS 7)", () => {
    const refer = findContentPage("/refer-a-friend-referral-program-garage-doors");
    expect(refer?.path).toBe("/refer-a-friend-referral-program-garage-doors");
    expect(refer?.sections.map((s) => s.kind)).toEqual(page("/review").sections.map((s) => s.kind));
    expect(findContentPage("/refer-a-friend-referral-program-")).toBeUndefined();
    expect(findContentPage("/refer-a-friend-referral-program-../x")).toBeUndefined();
    expect(findContentPage("/about-us/")?.path).toBe("/about-us");
    expect(findContentPage("/no-such-page")).toBeUndefined();
  });

  it("lists exactly the pages with a quote-form section as the form's hosts", () => {
    const hosts = contentPages.filter((p) => p.sections.some((s) => s.kind === "quote-form")).map((p) => p.path);
    expect([...quoteFormPaths].sort()).toEqual(hosts.sort());
  });
});
