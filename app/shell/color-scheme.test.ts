import { describe, expect, it } from "vitest";
import { choosesOwnColorScheme, colorSchemeCookieAttributes, colorSchemeFromCookie } from "./color-scheme";

describe("the colour-scheme cookie", () => {
  it("reads the stored choice from a Cookie header", () => {
    expect(colorSchemeFromCookie("a=1; color-scheme=dark; b=2")).toBe("dark");
    expect(colorSchemeFromCookie("color-scheme=auto")).toBe("auto");
    expect(colorSchemeFromCookie("my-color-scheme=dark")).toBeUndefined();
    expect(colorSchemeFromCookie("color-scheme=darker")).toBeUndefined();
    expect(colorSchemeFromCookie(null)).toBeUndefined();
  });

  it("makes a page the visitor's own only for a light or dark choice", () => {
    expect(choosesOwnColorScheme("color-scheme=light")).toBe(true);
    expect(choosesOwnColorScheme("color-scheme=dark")).toBe(true);
    expect(choosesOwnColorScheme("color-scheme=auto")).toBe(false);
    expect(choosesOwnColorScheme(undefined)).toBe(false);
  });

  it("is Secure over https only", () => {
    expect(colorSchemeCookieAttributes(true)).toMatch(/; Secure$/);
    expect(colorSchemeCookieAttributes(false)).not.toContain("Secure");
  });
});
