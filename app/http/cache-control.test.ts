import { describe, expect, it } from "vitest";
import { cacheControl, cachePolicy, formPageHeaders } from "./cache-control";

describe("Cache-Control policies", () => {
  it("are the values the routes sent before they were named", () => {
    expect(cacheControl).toEqual({
      noStore: "no-store",
      private: "private, no-store",
      answer: "private, max-age=0",
      revalidate: "public, max-age=0, must-revalidate",
      publicHour: "public, max-age=3600",
    });
    expect(cachePolicy.private).toEqual({ "Cache-Control": "private, no-store" });
    expect(cachePolicy.answer).toEqual({ "Cache-Control": "private, max-age=0" });
    expect(cachePolicy.shared(60)).toEqual({ "Cache-Control": "public, max-age=0, s-maxage=60, must-revalidate" });
  });

  it("a form page's answer to a post keeps the action's policy; the page itself is private, no-store", () => {
    const none = new Headers();
    expect(formPageHeaders({ actionHeaders: none, loaderHeaders: none }).get("Cache-Control")).toBe(
      "private, no-store",
    );
    const answered = new Headers(cachePolicy.answer);
    expect(formPageHeaders({ actionHeaders: answered, loaderHeaders: none }).get("Cache-Control")).toBe(
      "private, max-age=0",
    );
  });

  it("cannot be changed by a caller that spreads or mutates them", () => {
    expect(Object.isFrozen(cachePolicy.noStore)).toBe(true);
    const headers = new Headers({ ...cachePolicy.noStore, "Retry-After": "5" });
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(cachePolicy.noStore).toEqual({ "Cache-Control": "no-store" });
  });

  it("a form page is private and passes a refusal's Retry-After on", () => {
    const headers = formPageHeaders({
      actionHeaders: new Headers({ "Retry-After": "30" }),
      loaderHeaders: new Headers(),
    });
    expect(headers.get("Cache-Control")).toBe("private, no-store");
    expect(headers.get("Retry-After")).toBe("30");
  });
});
