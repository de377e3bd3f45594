/**
 * Every endpoint that takes a POST, as the bad-input test throws at them: the
 * HTML form routes (each page a form lives on, once per form) and the SPEC §7
 * JSON routes. `app/routes.test.ts` checks that each route module with an
 * action in app/routes.ts is reached by one of these, so a new form or
 * /api/store/* route cannot land untested.
 */
export const htmlFormEndpoints = [
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
  "/my-cart",
  "/checkout",
] as const;

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
  "/api/store/cart/delete",
  "/api/store/checkout",
] as const;
