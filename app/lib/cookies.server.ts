import { createCookie, type Cookie, type CookieOptions } from "react-router";
import { env } from "./env.server";
import { secret } from "./secrets.server";

/**
 * Every cookie the site sets comes from here (issue 5: Secure in production,
 * HttpOnly, SameSite=Lax; DECISIONS 21: the cart is a signed, http-only
 * cookie). Signed with SESSION_SECRET, so a visitor cannot forge another's
 * value; the cookie holds a reference (a cart id), the data lives in Postgres,
 * so any instance can answer.
 */
export type SiteCookieOptions = Pick<CookieOptions, "maxAge" | "expires" | "path">;

export function siteCookie(name: string, options: SiteCookieOptions = {}): Cookie {
  return createCookie(name, {
    ...siteCookieOptions(env().NODE_ENV === "production", options),
    secrets: [secret("SESSION_SECRET")],
  });
}

/** The attributes every site cookie gets; `Secure` in production (plain-http development would drop it). */
export function siteCookieOptions(production: boolean, options: SiteCookieOptions = {}): CookieOptions {
  return { path: "/", ...options, httpOnly: true, sameSite: "lax", secure: production };
}
