import { data } from "react-router";
import { notFoundMeta } from "~/content/not-found-head";
import { NotFoundContent } from "~/content/sections/NotFoundContent";
import type { SharedNotFoundHandle } from "~/http/page-cache.server";
import { NO_SCRIPTS, type ScriptsHandle } from "~/shell/page-scripts";
import type { Route } from "./+types/not-found";

/** DECISIONS 1: unknown paths show the home page with status 404, canonical "/". */
export function loader() {
  return data(null, { status: 404 });
}

/** Every unknown path gets the same document, rendered once a minute (page-cache.server.ts), with no JavaScript. */
export const handle: SharedNotFoundHandle & ScriptsHandle = { notFoundDocumentIsShared: true, ...NO_SCRIPTS };

export const meta: Route.MetaFunction = (args) => notFoundMeta(args);

export default function NotFound() {
  return <NotFoundContent />;
}
