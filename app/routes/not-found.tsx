import { data } from "react-router";
import { notFoundMeta } from "~/content/not-found-head";
import { NotFoundContent } from "~/content/sections/NotFoundContent";
import type { Route } from "./+types/not-found";

/** DECISIONS 1: unknown paths show the home page with status 404, canonical "/". */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => notFoundMeta(args);

export default function NotFound() {
  return <NotFoundContent />;
}
