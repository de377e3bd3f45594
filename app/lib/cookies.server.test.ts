import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { siteCookie, siteCookieOptions } from "./cookies.server";

describe("siteCookie", () => {
  it("is HttpOnly, SameSite=Lax, site-wide and signed; a tampered value reads as nothing", async () => {
    const cart = siteCookie("cart", { maxAge: 60 * 60 * 24 * 30 });
    const header = await cart.serialize("42");
    expect(header).toMatch(/^cart=/);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).toContain("Path=/");
    expect(header).toContain("Max-Age=2592000");
    expect(cart.isSigned).toBe(true);

    const value = header.split(";")[0]!;
    expect(await cart.parse(value)).toBe("42");
    const forged = value.replace(/^cart=[^.]+/, `cart=${Buffer.from(JSON.stringify("43")).toString("base64")}`);
    expect(await cart.parse(forged)).toBeNull();
  });

  it("is Secure in production only, whatever a caller passes", async () => {
    const inProduction = await createCookie("cart", siteCookieOptions(true, { path: "/shop" })).serialize("1");
    expect(inProduction).toContain("Secure");
    expect(inProduction).toContain("HttpOnly");
    expect(inProduction).toContain("Path=/shop");
    expect(await createCookie("cart", siteCookieOptions(false)).serialize("1")).not.toContain("Secure");
  });
});
