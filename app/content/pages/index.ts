import type { ContentPage } from "../page-types";
import { commercialPages } from "./commercial";
import { companyPages, referPage, referPrefix } from "./company-pages";
import { DEFAULT_POLICY_SETTINGS, POLICY_PATHS, policyPages, type PolicySettings } from "./policies";
import { residentialPages } from "./residential";

/** Every content page; the privacy notice and the terms as they read with the default settings. */
export const contentPages: ContentPage[] = [
  ...companyPages,
  ...residentialPages,
  ...commercialPages,
  ...policyPages(DEFAULT_POLICY_SETTINGS),
];

const byPath = new Map(contentPages.map((p) => [p.path, p]));
const isPolicyPath = (path: string): path is (typeof POLICY_PATHS)[number] =>
  (POLICY_PATHS as readonly string[]).includes(path);

/** A product slug after the referral prefix: lower-case words and digits. */
const productSlug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The page for a path (trailing slash ignored), or undefined when there is none. The privacy
 * notice and the terms say what the server's `settings` make true (how long mail is kept, the
 * booking's change cut-off…): the loader passes them (page-data.server.ts).
 */
export function findContentPage(pathname: string, settings?: PolicySettings): ContentPage | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (settings && isPolicyPath(path)) return policyPages(settings).find((p) => p.path === path);
  const page = byPath.get(path);
  if (page) return page;
  if (path.startsWith(referPrefix)) {
    const product = path.slice(referPrefix.length);
    if (productSlug.test(product)) return referPage(product);
  }
  return undefined;
}
