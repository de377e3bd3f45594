import type { MetaDescriptor } from "react-router";
import { pageHead, type PageHeadInput } from "~/shell/page-head";

/**
 * The head of the not-found page (DECISIONS 1: status 404, noindex, canonical "/").
 * Apart from NotFoundContent so that content pages' meta can use it without
 * pulling the home page's sections into their JavaScript.
 */
const notFoundHead: PageHeadInput = {
  title: "Page Not Found",
  description: "The page you asked for does not exist. Here is our home page instead.",
  path: "/",
  extra: [{ name: "robots", content: "noindex" }],
};

export function notFoundMeta(args: Parameters<typeof pageHead>[0]): MetaDescriptor[] {
  return pageHead(args, notFoundHead);
}
