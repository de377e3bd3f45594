import { afterEach, describe, expect, it } from "vitest";
import { reviewsStored } from "./cache.server";
import { clearPageCache, documentKey, perRender, rememberDocument, rememberedDocument } from "./page-cache.server";

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
    expect(documentKey(get("/contact?x=1"), 200, routed({ page: { title: "A" } }))!.key).not.toBe(base);
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

  it("are off with PAGE_CACHE=off", () => {
    process.env.PAGE_CACHE = "off";
    try {
      expect(documentKey(get(), 200, routed({}))).toBeUndefined();
    } finally {
      delete process.env.PAGE_CACHE;
    }
  });
});
