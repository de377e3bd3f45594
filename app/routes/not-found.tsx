import { data } from "react-router";
import { HomeContent } from "~/content/sections/HomeContent";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/not-found";

/** DECISIONS 1: unknown paths show the home page with status 404, canonical "/". */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Page Not Found",
    description: "The page you asked for does not exist. Here is our home page instead.",
    path: "/",
    extra: [{ name: "robots", content: "noindex" }],
  });

export default function NotFound() {
  return (
    <>
      <p className="not-found-note shell-container" role="status">
        We could not find that page, so here is our home page.
      </p>
      <HomeContent />
    </>
  );
}
