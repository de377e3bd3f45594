import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { contentRoutePaths } from "./content/route-paths";

/**
 * The route table, in the order of SPEC.md §2. Each capability keeps its own
 * block; add routes to the block of the capability that owns them.
 */
export default [
  // ── Shell & home ────────────────────────────────────────────────
  index("routes/home.tsx"),
  route("healthz", "routes/healthz.ts"),

  // ── Content pages (app/content) ─────────────────────────────────
  // One data-driven module renders every marketing page (app/content/pages).
  ...contentRoutePaths.map((path) => route(path.slice(1), "routes/content-page.tsx", { id: `content${path}` })),
  // DECISIONS 7: /refer-a-friend-referral-program-{product}. A one-segment
  // param route, since React Router has no partial-segment params; other
  // unknown one-segment paths get the home content with 404 there too.
  route(":slug", "routes/content-page.tsx", { id: "content/slug" }),
  route("contact-us", "routes/contact-us.ts"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
  // ── end of content pages ──

  // ── Forms (app/forms) ───────────────────────────────────────────
  // FORM-ROUTES

  // ── Unknown paths: home content with status 404 (DECISIONS 1) ───
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
