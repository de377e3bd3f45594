/**
 * Every endpoint that takes a POST, as the bad-input test throws at them: the
 * HTML form routes (each page a form lives on, once per form) and the SPEC §7
 * JSON routes. `app/routes.test.ts` checks that each route module with an
 * action in app/routes.ts is reached by one of these, so a new form or
 * /api/store/* route cannot land untested.
 */
/** Pages whose form is a lead form of the pipeline: captcha, honeypot, field errors re-rendered. */
export const leadFormEndpoints = [
  "/contact",
  "/request-quote?type=residential",
  "/request-quote?type=commercial",
  "/request-service?type=commercial",
  "/request-service?type=residential",
  "/commercial-schedule-service",
  "/discount-signup-2025",
  "/employment",
  "/pay-invoice",
  "/residential-patio-doors",
] as const;

/**
 * The shop's posting pages: the cart (add, update, delete: no captcha) and the
 * checkout (a lead form, shown once the cart holds something: an empty
 * visitor gets the empty-cart line instead).
 */
export const shopFormEndpoints = ["/my-cart", "/checkout"] as const;

/** The header's colour toggle without JavaScript: every page's form posts here (a 303 back to the page). */
export const shellFormEndpoints = ["/color-scheme"] as const;

export const htmlFormEndpoints = [...leadFormEndpoints, ...shopFormEndpoints, ...shellFormEndpoints] as const;

/** A booking's page (its cancel form), at a token no booking has: hostile posts get a 4xx, never a 5xx. */
export const bookingEndpoints = ["/booking/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] as const;

export const apiEndpoints = [
  "/api/store/contact/submit",
  "/api/store/request-quote/commercial",
  "/api/store/request-quote/residential",
  "/api/store/request-service/commercial",
  "/api/store/request-service/residential",
  "/api/store/quote/submit",
  "/api/store/promo/submit",
  "/api/store/employment/submit",
  "/api/store/pay-invoice/submit",
  "/api/store/cart/add",
  "/api/store/cart/update",
  "/api/store/cart/delete",
  "/api/store/checkout",
] as const;
