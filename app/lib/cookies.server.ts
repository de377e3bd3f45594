import type { CookieOptions } from "react-router";

/**
 * The attributes of every cookie the site sets (issue 5: HttpOnly,
 * SameSite=Lax; DECISIONS 21: the cart is a signed, http-only cookie holding
 * a reference, its data in Postgres, so any instance can answer). The one
 * cookie today is the cart's: `cartCookie()` in app/shop/cart.server.ts makes
 * it with these options and signs it with SESSION_SECRET.
 */
export type SiteCookieOptions = Pick<CookieOptions, "maxAge" | "expires" | "path">;

/** HttpOnly, SameSite=Lax, `Path=/` unless given; `Secure` when the site is served over https (SITE_URL), whatever a caller passes. */
export function siteCookieOptions(https: boolean, options: SiteCookieOptions = {}): CookieOptions {
  return { path: "/", ...options, httpOnly: true, sameSite: "lax", secure: https };
}
