import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { apiEndpoints, bookingEndpoints, htmlFormEndpoints } from "../tests/e2e/quality/endpoints";
import routes from "./routes";
import { siteMap } from "./shell/navigation";

/**
 * The quality harness (issue 5) must grow with the route table: these checks
 * fail when a route lands that the end-to-end quality tests do not reach.
 */
type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] };

function flatten(entries: Entry[], parent = ""): { file: string; pattern: string }[] {
  return entries.flatMap((e) => {
    const pattern = e.index ? parent || "/" : `${parent}/${e.path ?? ""}`.replace(/\/+/g, "/");
    return [{ file: e.file, pattern }, ...flatten(e.children ?? [], pattern)];
  });
}

const table = flatten((await routes) as Entry[]);
const source = (file: string) => readFileSync(fileURLToPath(new URL(file, import.meta.url)), "utf8");
const hasAction = (file: string) =>
  /export\s+(const|(async\s+)?function)\s+action\b|export\s*\{[^}]*\baction\b/.test(source(file));

/** The route a path resolves to, as React Router ranks them: static segments before params before the splat. */
function routeOf(path: string) {
  const pathname = new URL(path, "http://x").pathname;
  const score = (pattern: string) =>
    pattern === "/*" ? 0 : pattern.split("/").reduce((s, seg) => s + (seg.startsWith(":") ? 2 : 10), 0);
  const matches = table.filter(({ pattern }) => {
    if (pattern === "/*") return true;
    const re = new RegExp(`^${pattern.replace(/:[^/]+/g, "[^/]+")}$`);
    return re.test(pathname);
  });
  return matches.sort((a, b) => score(b.pattern) - score(a.pattern))[0];
}

describe("the route table and the quality harness", () => {
  it("every route module that takes a POST is in the bad-input test's endpoints", () => {
    const withAction = [...new Set(table.filter((r) => hasAction(r.file)).map((r) => r.file))];
    expect(withAction.length).toBeGreaterThan(5);
    const reached = new Set([...htmlFormEndpoints, ...bookingEndpoints, ...apiEndpoints].map((p) => routeOf(p)?.file));
    expect(withAction.filter((file) => !reached.has(file))).toEqual([]);
  });

  it("every endpoint the bad-input test posts to is a route that takes a POST", () => {
    for (const path of [...htmlFormEndpoints, ...bookingEndpoints, ...apiEndpoints]) {
      const route = routeOf(path);
      expect(route?.pattern, path).not.toBe("/*");
      expect(hasAction(route!.file), path).toBe(true);
    }
  });

  it("every page of the route table is in the site map, which the accessibility test walks", () => {
    const linked = new Set(siteMap.flatMap((c) => c.links.map((l) => l.to)));
    const pages = table
      .filter((r) => !r.pattern.includes(":") && r.pattern !== "/*")
      // /order-confirmation is reached by the checkout's redirect only (its axe run: tests/e2e/quality/a11y.spec.ts);
      // /color-scheme is the colour toggle's form target, not a page (a GET goes home).
      .filter(
        (r) =>
          !/^\/(api\/|healthz$|sitemap\.xml$|robots\.txt$|contact-us$|order-confirmation$|color-scheme$)/.test(
            r.pattern,
          ),
      );
    expect(pages.length).toBeGreaterThan(30);
    expect(pages.map((r) => r.pattern).filter((p) => !linked.has(p))).toEqual([]);
  });
});
