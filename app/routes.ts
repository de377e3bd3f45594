import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * The route table, in the order of SPEC.md §2. Each capability keeps its own
 * block; add routes to the block of the capability that owns them.
 */
export default [
  // ── Shell & home ────────────────────────────────────────────────
  index("routes/home.tsx"),
  route("healthz", "routes/healthz.ts"),

  // ── Content pages (app/content) ─────────────────────────────────
  // CONTENT-ROUTES

  // ── Forms (app/forms) ───────────────────────────────────────────
  // FORM-ROUTES

  // ── Unknown paths: home content with status 404 (DECISIONS 1) ───
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
