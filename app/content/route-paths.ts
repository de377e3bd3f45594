/**
 * The content pages of SPEC §2, in the order of the route table, and whether
 * each is a product page that carries the simple quote form (DECISIONS 9).
 * app/routes.ts registers one route per path: routes/product-page.tsx for the
 * pages with the form (the only content route that loads the form's code and
 * takes a POST), routes/content-page.tsx for the others. pages/index.ts holds
 * each path's page data (pages.test.ts keeps the two in step, and the
 * `quoteForm` flags in step with the pages' `quote-form` sections).
 * Kept free of imports so the route config can load it on its own.
 */
const contentPages = {
  "/about-us": { quoteForm: false },
  "/service-area": { quoteForm: false },
  "/careers": { quoteForm: false },
  "/review": { quoteForm: false },
  "/residential-garage-doors": { quoteForm: true },
  "/residential-garage-door-openers": { quoteForm: true },
  "/residential-entry-doors": { quoteForm: true },
  "/residential-patio-doors": { quoteForm: true },
  "/residential-seamless-gutters": { quoteForm: true },
  "/residential-vinyl-siding": { quoteForm: true },
  "/residential-windows": { quoteForm: true },
  "/residential-garage-door-repairs": { quoteForm: true },
  "/residential-garage-door-installation": { quoteForm: true },
  "/commercial-sectional-garage-doors": { quoteForm: true },
  "/commercial-rolling-steel-doors": { quoteForm: true },
  "/commercial-loading-docks": { quoteForm: true },
  "/commercial-hollow-metal-doors": { quoteForm: true },
  "/commercial-bathroom-partitions": { quoteForm: true },
  "/commercial-mobile-app": { quoteForm: false },
  "/commercial-openers": { quoteForm: true },
  "/commercial-openers-dock-door-operator": { quoteForm: false },
  "/commercial-openers-heearhead-hoist-operator": { quoteForm: false },
  "/commercial-openers-gearhead-trolley": { quoteForm: false },
  "/commercial-openers-hoist-operator": { quoteForm: false },
  "/commercial-openers-jackshaft": { quoteForm: false },
  "/commercial-openers-trolley-operator": { quoteForm: false },
  "/privacy": { quoteForm: false },
  "/terms": { quoteForm: false },
} satisfies Record<string, { quoteForm: boolean }>;

type ContentRoutePath = keyof typeof contentPages;

export const contentRoutePaths = Object.keys(contentPages) as ContentRoutePath[];

/** The product pages that carry the simple quote form. */
export const quoteFormPaths: readonly string[] = contentRoutePaths.filter((path) => contentPages[path].quoteForm);
