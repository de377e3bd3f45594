import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { contentRoutePaths, quoteFormPaths } from "./content/route-paths";

/**
 * The route table, in the order of SPEC.md §2. Each capability keeps its own
 * block; add routes to the block of the capability that owns them.
 */
export default [
  // ── Shell & home ────────────────────────────────────────────────
  index("routes/home.tsx"),
  route("healthz", "routes/healthz.ts"),
  // The colour toggle's form without JavaScript: stores the choice, back to the page.
  route("color-scheme", "routes/color-scheme.ts"),

  // ── Content pages (app/content) ─────────────────────────────────
  // One data-driven module renders every marketing page (app/content/pages).
  // The product pages that carry the simple quote form get the module that loads its code.
  ...contentRoutePaths.map((path) =>
    route(path.slice(1), quoteFormPaths.includes(path) ? "routes/product-page.tsx" : "routes/content-page.tsx", {
      id: `content${path}`,
    }),
  ),
  // DECISIONS 7: /refer-a-friend-referral-program-{product}. A one-segment
  // param route, since React Router has no partial-segment params; other
  // unknown one-segment paths get the home content with 404 there too.
  route(":slug", "routes/content-page.tsx", { id: "content/slug" }),
  route("contact-us", "routes/contact-us.ts"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
  // ── end of content pages ──

  // ── Forms (app/forms) ───────────────────────────────────────────
  // Lead capture (issue 4): the pages, then the SPEC §7 JSON routes, which
  // call the same handlers (app/forms/*/handle.server.ts).
  route("contact", "routes/contact.tsx"),
  route("request-quote", "routes/request-quote.tsx"),
  route("request-service", "routes/request-service.tsx"),
  route("request-service/receipt/:payment", "routes/request-service.receipt.tsx"),
  // A booking's manage page, by its link's token (DECISIONS 32).
  route("booking/:token", "routes/booking.tsx"),
  route("commercial-schedule-service", "routes/commercial-schedule-service.tsx"),
  route("employment", "routes/employment.tsx"),
  route("discount-signup-2025", "routes/discount-signup-2025.tsx"),
  route("pay-invoice", "routes/pay-invoice.tsx"),
  route("pay-invoice/receipt/:payment", "routes/pay-invoice.receipt.tsx"),
  route("api/captcha/challenge", "routes/api/captcha.challenge.ts"),
  // The booking's ZIP against the service area (DECISIONS 30), asked as the visitor types.
  route("api/service-area", "routes/api/service-area.ts"),
  route("api/store/contact/submit", "routes/api/store.contact.ts"),
  route("api/store/request-quote/:type", "routes/api/store.request-quote.ts"),
  route("api/store/request-service/commercial", "routes/api/store.request-service.ts"),
  route("api/store/request-service/residential", "routes/api/store.request-service-residential.ts"),
  route("api/store/quote/submit", "routes/api/store.quote.ts"),
  route("api/store/promo/submit", "routes/api/store.promo.ts"),
  route("api/store/employment/submit", "routes/api/store.employment.ts"),
  route("api/store/pay-invoice/submit", "routes/api/store.pay-invoice.ts"),
  // ── end of forms ──

  // ── Shop (app/shop) ─────────────────────────────────────────────
  // Catalogue pages (issue 17), then the SPEC §7 catalogue JSON routes.
  route("shop", "routes/shop.tsx"),
  route("product/:id", "routes/product.tsx"),
  route("api/store/inventory/list", "routes/api/store.inventory-list.ts"),
  route("api/store/category/list", "routes/api/store.category-list.ts"),
  route("api/store/inventory/get/:id", "routes/api/store.inventory-get.ts"),
  // The cookie cart (issue 17 item 4): the page, then its SPEC §7 calls.
  route("my-cart", "routes/my-cart.tsx"),
  route("api/store/cart/add", "routes/api/store.cart-add.ts"),
  route("api/store/cart/get", "routes/api/store.cart-get.ts"),
  // The header's cart count, asked by the browser when the page did not say it (a shared cached page).
  route("api/store/cart/count", "routes/api/store.cart-count.ts"),
  route("api/store/cart/update", "routes/api/store.cart-update.ts"),
  route("api/store/cart/delete", "routes/api/store.cart-delete.ts"),
  // Checkout (issue 17 items 5-6): a paid form of the one pipeline, its confirmation, its SPEC §7 call.
  route("checkout", "routes/checkout.tsx"),
  route("order-confirmation", "routes/order-confirmation.tsx"),
  // An order's page, by its link's token (DECISIONS 32): where the checkout sends the buyer, and the mail's link.
  route("order/:token", "routes/order.tsx"),
  route("api/store/checkout", "routes/api/store.checkout.ts"),
  // ── end of shop ──

  // ── Unknown paths: home content with status 404 (DECISIONS 1) ───
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
