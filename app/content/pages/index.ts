import type { ContentPage } from "../page-types";
import { commercialPages } from "./commercial";
import { companyPages, referPage, referPrefix } from "./company-pages";
import { residentialPages } from "./residential";

export const contentPages: ContentPage[] = [...companyPages, ...residentialPages, ...commercialPages];

const byPath = new Map(contentPages.map((p) => [p.path, p]));

/** A product slug after the referral prefix: lower-case words and digits. */
const productSlug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The page for a path (trailing slash ignored), or undefined when there is none. */
export function findContentPage(pathname: string): ContentPage | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const page = byPath.get(path);
  if (page) return page;
  if (path.startsWith(referPrefix)) {
    const product = path.slice(referPrefix.length);
    if (productSlug.test(product)) return referPage(product);
  }
  return undefined;
}
