import type { MetaDescriptor } from "react-router";
import { pageHead, type PageHeadInput } from "~/shell/page-head";
import { HomeContent } from "./HomeContent";

/** DECISIONS 1: an unknown path shows the home page (status 404, noindex, canonical "/"). */
export function NotFoundContent() {
  return (
    <>
      <p className="not-found-note shell-container" role="status">
        We could not find that page, so here is our home page.
      </p>
      <HomeContent />
    </>
  );
}

const notFoundHead: PageHeadInput = {
  title: "Page Not Found",
  description: "The page you asked for does not exist. Here is our home page instead.",
  path: "/",
  extra: [{ name: "robots", content: "noindex" }],
};

export function notFoundMeta(args: Parameters<typeof pageHead>[0]): MetaDescriptor[] {
  return pageHead(args, notFoundHead);
}
