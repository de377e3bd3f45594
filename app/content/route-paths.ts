/**
 * The content pages of SPEC §2, in the order of the route table. app/routes.ts
 * registers one route per path (served by routes/content-page.tsx, or by
 * routes/product-page.tsx for the pages that carry the simple quote form);
 * pages/index.ts holds each path's page data (a test keeps the two in step).
 * Kept free of imports so the route config can load it on its own.
 */
export const contentRoutePaths = [
  "/about-us",
  "/service-area",
  "/careers",
  "/review",
  "/residential-garage-doors",
  "/residential-garage-door-openers",
  "/residential-entry-doors",
  "/residential-patio-doors",
  "/residential-seamless-gutters",
  "/residential-vinyl-siding",
  "/residential-windows",
  "/residential-garage-door-repairs",
  "/residential-garage-door-installation",
  "/commercial-sectional-garage-doors",
  "/commercial-rolling-steel-doors",
  "/commercial-loading-docks",
  "/commercial-hollow-metal-doors",
  "/commercial-bathroom-partitions",
  "/commercial-mobile-app",
  "/commercial-openers",
  "/commercial-openers-dock-door-operator",
  "/commercial-openers-heearhead-hoist-operator",
  "/commercial-openers-gearhead-trolley",
  "/commercial-openers-hoist-operator",
  "/commercial-openers-jackshaft",
  "/commercial-openers-trolley-operator",
] as const;

/**
 * The product pages that carry the simple quote form (DECISIONS 9). They are
 * served by routes/product-page.tsx, the only content route that loads the
 * form's code and takes a POST (pages.test.ts keeps this list in step with the
 * pages' `quote-form` sections).
 */
export const quoteFormPaths: readonly string[] = [
  "/residential-garage-doors",
  "/residential-garage-door-openers",
  "/residential-entry-doors",
  "/residential-patio-doors",
  "/residential-seamless-gutters",
  "/residential-vinyl-siding",
  "/residential-windows",
  "/residential-garage-door-repairs",
  "/residential-garage-door-installation",
  "/commercial-sectional-garage-doors",
  "/commercial-rolling-steel-doors",
  "/commercial-loading-docks",
  "/commercial-hollow-metal-doors",
  "/commercial-bathroom-partitions",
  "/commercial-openers",
];
