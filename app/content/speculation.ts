import { contentRoutePaths, quoteFormPaths } from "./route-paths";

/**
 * The Speculation Rules of every page (docs/decisions/079): a link to a page without a form of its
 * own (which runs no script) is prerendered when the pointer rests on it or a finger touches it,
 * so the next marketing page shows at once with no framework code. Form pages are never
 * prerendered: their scripts would run (the captcha's work, the calendar) for a page maybe not opened.
 */
const marketingPaths = ["/", ...contentRoutePaths.filter((path) => !quoteFormPaths.includes(path))];

export const speculationRules = JSON.stringify({
  prerender: [{ where: { href_matches: marketingPaths }, eagerness: "moderate" }],
});
