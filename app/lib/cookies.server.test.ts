import { createCookie } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { cartCookieHeader, cartIdOf } from "~/shop/cart.server";
import { siteCookieOptions } from "./cookies.server";
import { env } from "./env.server";

/** A request carrying `cookie` (a `name=value` pair), as /my-cart and /api/store/cart/* read it. */
const withCookie = (cookie?: string) =>
  new Request("http://localhost:3000/my-cart", cookie ? { headers: { Cookie: cookie } } : undefined);

// The cart cookie through the code production uses: cartCookieHeader() makes the
// Set-Cookie of a new cart, cartIdOf() reads it back (app/shop/cart.server.ts).
describe("the cart cookie", () => {
  const siteUrl = env().SITE_URL;
  afterEach(() => {
    env().SITE_URL = siteUrl;
  });

  it("is HttpOnly, SameSite=Lax, site-wide, kept 90 days and signed; a tampered value reads as no cart", async () => {
    const id = crypto.randomUUID();
    const header = await cartCookieHeader(id);
    expect(header).toMatch(/^cart=/);
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    expect(header).toContain("Path=/");
    expect(header).toContain(`Max-Age=${60 * 60 * 24 * 90}`);

    const value = header.split(";")[0]!;
    expect(await cartIdOf(withCookie(value))).toBe(id);
    const forged = value.replace(
      /^cart=[^.]+/,
      `cart=${Buffer.from(JSON.stringify(crypto.randomUUID())).toString("base64")}`,
    );
    expect(forged).not.toBe(value);
    expect(await cartIdOf(withCookie(forged))).toBeNull();
    expect(await cartIdOf(withCookie("cart=42"))).toBeNull();
    expect(await cartIdOf(withCookie())).toBeNull();
  });

  it("is Secure when the site is served over https, not on plain http", async () => {
    env().SITE_URL = "https://www.example.com";
    const overHttps = await cartCookieHeader(crypto.randomUUID());
    expect(overHttps).toContain("Secure");
    expect(await cartIdOf(withCookie(overHttps.split(";")[0]))).not.toBeNull();

    env().SITE_URL = "http://localhost:3000";
    expect(await cartCookieHeader(crypto.randomUUID())).not.toContain("Secure");
  });
});

describe("siteCookieOptions", () => {
  it("is HttpOnly and SameSite=Lax, and Secure over https only, whatever a caller passes", async () => {
    const overHttps = await createCookie("cart", siteCookieOptions(true, { path: "/shop" })).serialize("1");
    expect(overHttps).toContain("Secure");
    expect(overHttps).toContain("HttpOnly");
    expect(overHttps).toContain("Path=/shop");
    expect(await createCookie("cart", siteCookieOptions(false)).serialize("1")).not.toContain("Secure");
  });
});
