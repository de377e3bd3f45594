import { readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reviewsStored } from "~/lib/cache.server";
import {
  clearPageCache,
  documentKey,
  pageCacheKey,
  pageCacheMiddleware,
  pageCacheSize,
  perRender,
  rememberDocument,
  rememberedDocument,
  servePageFromCache,
  sharedCacheHeaders,
} from "./page-cache.server";
import { requestNonce } from "~/http/security.server";

/** The root middleware for a visitor with no cookie of their own. */
const middleware = pageCacheMiddleware({ ownPage: () => false, hasCart: () => false });

/** What React Router hands entry.server, reduced to what the key reads. */
function routed(loaderData: unknown, actionData: unknown = null, leaf = "routes/contact", handle?: unknown) {
  return {
    staticHandlerContext: { matches: [{ route: { id: "root" } }, { route: { id: leaf } }], loaderData, actionData },
    routeModules: { [leaf]: { handle } },
  };
}

/** A loader's form data with its per-answer strings, as formBootstrap() makes them. */
function bootstrap(question: string, token: string) {
  return perRender({ noJs: { question, token } }, [question, token]);
}

/** A document as React would render it: the strings in the markup and again in the hydration data. */
function renderDoc(nonce: string, question: string, token: string, extra = "") {
  return (
    `<html><script nonce="${nonce}"></script><label>${question}</label><input type="hidden" value="${token}"/>${extra}` +
    `<script nonce="${nonce}">data(${JSON.stringify({ question, token })})</script></html>`
  );
}

const get = (path = "/contact") => new Request(`http://localhost${path}`);
const post = (path = "/contact") => new Request(`http://localhost${path}`, { method: "POST" });

afterEach(clearPageCache);

describe("remembered documents", () => {
  it("give a GET its own nonce and per-answer values in a copy of the last render with the same inputs", () => {
    const first = documentKey(
      get(),
      200,
      routed({ root: { year: 2026 }, page: bootstrap("What is 3 + 4?", "t.one.mac1") }),
    )!;
    expect(first.fresh).toEqual(["What is 3 + 4?", "t.one.mac1"]);
    expect(rememberedDocument(first, "nonceA")).toBeUndefined();
    rememberDocument(first, renderDoc("nonceA", "What is 3 + 4?", "t.one.mac1"), "nonceA");

    const second = documentKey(
      get(),
      200,
      routed({ root: { year: 2026 }, page: bootstrap("What is 2 + 2?", "t.two.mac2") }),
    )!;
    expect(second.key).toBe(first.key);
    expect(rememberedDocument(second, "nonceB")?.toString()).toBe(renderDoc("nonceB", "What is 2 + 2?", "t.two.mac2"));
  });

  it("swap in one pass: a new value equal to another old one is not swapped again", () => {
    const first = documentKey(get(), 200, routed({ page: bootstrap("What is 1 + 1?", "tokA") }))!;
    rememberDocument(first, renderDoc("n1", "What is 1 + 1?", "tokA"), "n1");
    // The new token happens to be the old nonce, and the new nonce the old token.
    const second = documentKey(get(), 200, routed({ page: bootstrap("What is 5 + 5?", "n1") }))!;
    expect(rememberedDocument(second, "tokA")?.toString()).toBe(renderDoc("tokA", "What is 5 + 5?", "n1"));
  });

  it("differ when the URL, status, loader data or action data differ", () => {
    const base = documentKey(get(), 200, routed({ page: { title: "A" } }))!.key;
    expect(documentKey(get("/contact/x"), 200, routed({ page: { title: "A" } }))!.key).not.toBe(base);
    const quote = documentKey(get("/request-quote?type=a"), 200, routed({ page: { title: "A" } }))!.key;
    expect(documentKey(get("/request-quote?type=b"), 200, routed({ page: { title: "A" } }))!.key).not.toBe(quote);
    expect(documentKey(get(), 503, routed({ page: { title: "A" } }))!.key).not.toBe(base);
    expect(documentKey(get(), 200, routed({ page: { title: "B" } }))!.key).not.toBe(base);
    expect(documentKey(get(), 200, routed({ page: { title: "A", note: undefined } }))!.key).not.toBe(base);
    expect(documentKey(get(), 200, routed({ page: { title: "A" } }, { status: "success" }))!.key).not.toBe(base);
    const asDate = documentKey(get(), 200, routed({ page: { at: new Date(0) } }))!.key;
    expect(documentKey(get(), 200, routed({ page: { at: new Date(0).toISOString() } }))!.key).not.toBe(asDate);
  });

  it("share one 404 document across paths only for routes that say so", () => {
    const shared = { notFoundDocumentIsShared: true };
    const a = documentKey(get("/wp-login.php"), 404, routed({ page: null }, null, "routes/not-found", shared))!;
    const b = documentKey(get("/.env"), 404, routed({ page: null }, null, "routes/not-found", shared))!;
    expect(a.key).toBe(b.key);
    const c = documentKey(get("/wp-login.php"), 404, routed({ page: null }, null, "routes/other"))!;
    const d = documentKey(get("/.env"), 404, routed({ page: null }, null, "routes/other"))!;
    expect(c.key).not.toBe(d.key);
  });

  it("are never made from errors, other methods, or data JSON cannot tell apart", () => {
    const withErrors = {
      ...routed({}),
      staticHandlerContext: { ...routed({}).staticHandlerContext, errors: { root: new Error("x") } },
    };
    expect(documentKey(get(), 500, withErrors)).toBeUndefined();
    // A refused form shows the visitor's values: never kept, however often the same post comes.
    expect(documentKey(post(), 400, routed({ page: { title: "A" } }, { status: "error" }))).toBeUndefined();
    expect(documentKey(post(), 429, routed({ page: { title: "A" } }, { status: "error" }))).toBeUndefined();
    expect(documentKey(post(), 200, routed({ page: { title: "A" } }, { status: "success" }))).toBeDefined();
    expect(documentKey(new Request("http://localhost/contact", { method: "PUT" }), 200, routed({}))).toBeUndefined();
    expect(documentKey(get(), 200, routed({ page: new Map([["a", 1]]) }))).toBeUndefined();
    expect(documentKey(get(), 200, routed({ page: new Set([1]) }))).toBeUndefined();
    expect(documentKey(get(), 200, routed({ page: { n: 1n } }))).toBeUndefined();
  });

  it("keep an answer to a POST only once the same key was seen twice, so one visitor's values are not kept", () => {
    const sent = () =>
      documentKey(post(), 200, routed({ page: bootstrap("What is 1 + 2?", "tok1") }, { status: "success" }))!;
    rememberDocument(sent(), renderDoc("n1", "What is 1 + 2?", "tok1", "Your message has been sent!"), "n1");
    expect(rememberedDocument(sent(), "n2")).toBeUndefined();
    rememberDocument(sent(), renderDoc("n2", "What is 1 + 2?", "tok1", "Your message has been sent!"), "n2");
    expect(rememberedDocument(sent(), "n3")?.toString()).toContain('nonce="n3"');
  });

  it("are not kept when a per-answer value cannot be found in the render, or two of them are equal", () => {
    const escaped = documentKey(get(), 200, routed({ page: bootstrap("What is 1 < 2?", "tok") }))!;
    rememberDocument(escaped, renderDoc("n1", "What is 1 &lt; 2?", "tok"), "n1");
    expect(rememberedDocument(escaped, "n2")).toBeUndefined();

    const twoForms = () => routed({ a: bootstrap("What is 3 + 3?", "tokA"), b: bootstrap("What is 3 + 3?", "tokB") });
    const doc = documentKey(get("/two"), 200, twoForms())!;
    rememberDocument(doc, renderDoc("n1", "What is 3 + 3?", "tokA") + renderDoc("n1", "What is 3 + 3?", "tokB"), "n1");
    expect(rememberedDocument(documentKey(get("/two"), 200, twoForms())!, "n2")).toBeUndefined();
  });

  it("expire after a minute", () => {
    const realNow = Date.now;
    try {
      const doc = documentKey(get(), 200, routed({ page: { title: "A" } }))!;
      rememberDocument(doc, `<p nonce="n1">A</p>`, "n1");
      expect(rememberedDocument(doc, "n2")?.toString()).toBe(`<p nonce="n2">A</p>`);
      const later = realNow() + 61_000;
      Date.now = () => later;
      expect(rememberedDocument(doc, "n3")).toBeUndefined();
    } finally {
      Date.now = realNow;
    }
  });

  it("are dropped when reviews are stored (the footer shows them)", () => {
    const doc = documentKey(get(), 200, routed({ page: { title: "A" } }))!;
    rememberDocument(doc, `<p nonce="n1">A</p>`, "n1");
    reviewsStored();
    expect(rememberedDocument(doc, "n2")).toBeUndefined();
  });

  it("leave out the query parameters the route does not read, unless the document shows them", () => {
    const key = (path: string) => documentKey(get(path), 200, routed({ page: { title: "A" } }))!;
    expect(key("/contact?gclid=1&utm_source=x").key).toBe(key("/contact").key);
    expect(key("/request-quote?type=garage&fbclid=2").key).toBe(key("/request-quote?type=garage").key);
    const shown = key("/contact?gclid=1");
    rememberDocument(shown, `<p nonce="n1"><form action="/contact?gclid=1"></form></p>`, "n1");
    expect(rememberedDocument(key("/contact?gclid=2"), "n2")).toBeUndefined();
    rememberDocument(key("/contact?gclid=3"), `<p nonce="n1">A</p>`, "n1");
    expect(rememberedDocument(key("/contact"), "n2")?.toString()).toBe(`<p nonce="n2">A</p>`);
  });

  it("are off with PAGE_CACHE=off", async () => {
    vi.stubEnv("PAGE_CACHE", "off");
    vi.resetModules(); // the settings are read once per process (env.server.ts)
    try {
      const fresh = await import("./page-cache.server");
      expect(fresh.documentKey(get(), 200, routed({}))).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the shared page cache", () => {
  /** The root middleware in front of a route that renders `body(nonce)` with `headers`; counts the renders. */
  function site(body = (nonce: string) => `<html><script nonce="${nonce}"></script>Windows</html>`, headers = {}) {
    let renders = 0;
    const request = async (target: string) => {
      const context = new RouterContextProvider();
      const response = await middleware(
        { request: get(target), context, params: {}, unstable_pattern: target } as never,
        async () => {
          renders++;
          return new Response(body(requestNonce(context)), {
            headers: { "Content-Type": "text/html; charset=utf-8", ...sharedCacheHeaders(), ...headers },
          });
        },
      );
      return { response: response as Response, nonce: requestNonce(context) };
    };
    return { request, renders: () => renders };
  }

  /** What server/app.ts does before Express: true when the cache answered. */
  function servedBeforeExpress(target: string): boolean {
    const res = { writeHead: () => res, cork: () => {}, write: () => true, end: () => {} };
    return servePageFromCache(
      { method: "GET", url: target, headers: {} } as IncomingMessage,
      res as unknown as ServerResponse,
      { ownPage: () => false, hasCart: () => false },
    );
  }

  it("answers a cart holder from the cache only with a page that runs the app (which asks for the count)", async () => {
    const scripted = site();
    await scripted.request("/shop");
    const scriptless = site((nonce) => `<html data-scripts="off"><script nonce="${nonce}"></script>Home</html>`);
    await scriptless.request("/about-us");
    const cartHolder = pageCacheMiddleware({ ownPage: () => false, hasCart: () => true });
    let rendered = 0;
    const ask = async (target: string) =>
      (await cartHolder(
        { request: get(target), context: new RouterContextProvider(), params: {} } as never,
        async () => {
          rendered++;
          return new Response("<html>theirs</html>", {
            headers: { "Content-Type": "text/html", ...sharedCacheHeaders() },
          });
        },
      )) as Response;
    expect((await ask("/shop")).headers.get("x-page-cache")).toBe("hit");
    const own = await ask("/about-us");
    expect(await own.text()).toBe("<html>theirs</html>");
    expect(own.headers.get("Cache-Control")).toContain("no-store");
    expect(rendered).toBe(1);
    const res = { writeHead: () => res, cork: () => {}, write: () => true, end: () => {} };
    const before = (url: string) =>
      servePageFromCache({ method: "GET", url, headers: { cookie: "cart=x" } } as IncomingMessage, res as never, {
        ownPage: () => false,
        hasCart: (cookie) => Boolean(cookie?.includes("cart=")),
      });
    expect([before("/shop"), before("/about-us")]).toEqual([true, false]);
  });

  it("keeps one entry for a page whatever ad or unknown parameters its address carries", async () => {
    const { request, renders } = site();
    const first = await request("/residential-windows?gclid=1");
    expect(first.response.headers.get("X-Page-Cache")).toBe("miss");
    const second = await request("/residential-windows?gclid=2");
    expect(second.response.headers.get("X-Page-Cache")).toBe("hit");
    expect(await second.response.text()).toBe(`<html><script nonce="${second.nonce}"></script>Windows</html>`);
    expect((await request("/residential-windows")).response.headers.get("X-Page-Cache")).toBe("hit");
    await request("/residential-windows?utm_source=google&utm_medium=cpc&utm_campaign=spring&fbclid=a&msclkid=b&x=1");
    expect(renders()).toBe(1);
    expect(servedBeforeExpress("/residential-windows?gclid=3")).toBe(true);
    expect(servedBeforeExpress("/residential-windows?whatever")).toBe(true);
    expect(pageCacheKey("/residential-windows?gclid=1")).toBe("/residential-windows");
  });

  it("gives a parameter the route reads an entry of its own, still without the ad parameters", async () => {
    const { request, renders } = site();
    await request("/shop");
    await request("/shop?sort=price-asc");
    await request("/shop?sort=price-asc&gclid=9");
    await request("/shop?category=2&sort=price-asc");
    expect(renders()).toBe(3);
    expect(servedBeforeExpress("/shop?utm_source=x&sort=price-asc")).toBe(true);
    expect(servedBeforeExpress("/shop?sort=price-desc")).toBe(false);
    expect(pageCacheKey("/product/7?selectedOptions.Color=Red&gclid=1")).toBe("/product/7?selectedOptions.Color=Red");
  });

  it("does not keep a page that shows a parameter its key leaves out", async () => {
    const { request, renders } = site((nonce) => `<html nonce="${nonce}"><a href="?gclid=1&amp;x=2">again</a></html>`);
    await request("/residential-windows?gclid=1");
    await request("/residential-windows?gclid=2");
    expect(renders()).toBe(2);
  });

  it("knows every query parameter a route's loader reads (add new ones to READ_PARAMS)", () => {
    const routesDir = path.resolve("app/routes");
    const table = readFileSync(path.resolve("app/routes.ts"), "utf8");
    const paths = new Map<string, string>();
    for (const [, routePath, file] of table.matchAll(/route\("([^"]*)", "routes\/([^"]+)"/g)) {
      paths.set(file!, `/${routePath!.replace(/:[a-z]+/gi, "1")}`);
    }
    const files = readdirSync(routesDir, { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f));
    let checked = 0;
    for (const file of files) {
      const source = readFileSync(path.join(routesDir, file), "utf8");
      for (const [, name] of source.matchAll(/searchParams\.get\("([^"]+)"\)/g)) {
        const routePath = paths.get(file.replaceAll(path.sep, "/"));
        expect(routePath, `${file} is in app/routes.ts`).toBeDefined();
        expect(pageCacheKey(`${routePath}?${name}=v`), `${file} reads ?${name}`).toBe(`${routePath}?${name}=v`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});

describe("the caches' bounds", () => {
  it("hold the page cache to its bytes, keeping the pages most recently served", async () => {
    const big = "x".repeat(1024 * 1024);
    const render = (target: string) => {
      const context = new RouterContextProvider();
      return middleware(
        { request: get(target), context, params: {} } as never,
        async () =>
          new Response(`<html nonce="${requestNonce(context)}">${target}${big}</html>`, {
            headers: { "Content-Type": "text/html", ...sharedCacheHeaders() },
          }),
      );
    };
    await render("/");
    for (let i = 0; i < 20; i++) {
      await render(`/page-${i}`);
      await render("/"); // the home page stays in use
    }
    const size = pageCacheSize();
    expect(size.pageBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(size.pages).toBeGreaterThanOrEqual(6);
    expect(size.pages).toBeLessThanOrEqual(8);
    const res = { writeHead: () => res, cork: () => {}, write: () => true, end: () => {} };
    const served = (url: string) =>
      servePageFromCache({ method: "GET", url, headers: {} } as IncomingMessage, res as unknown as ServerResponse, {
        ownPage: () => false,
        hasCart: () => false,
      });
    expect(served("/")).toBe(true);
    expect(served("/page-0")).toBe(false);
    expect(served("/page-19")).toBe(true);
  });

  it("hold the remembered documents to their bytes", () => {
    const big = "y".repeat(512 * 1024);
    for (let i = 0; i < 30; i++) {
      const doc = documentKey(get(`/contact/${i}`), 200, routed({ page: { i } }))!;
      rememberDocument(doc, `<p nonce="n1">${i}${big}</p>`, "n1");
    }
    const size = pageCacheSize();
    expect(size.documentBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(size.documents).toBe(7);
  });
});
