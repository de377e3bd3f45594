import { HomeContent } from "~/content/sections/HomeContent";
import { homeBanner } from "~/content/home";
import { businessJsonLdMeta } from "~/content/structured-data";
import { sharedCacheHeaders } from "~/http/page-cache.server";
import { NO_SCRIPTS } from "~/shell/page-scripts";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Garage Doors, Windows, Doors, Gutters & Siding in Michigan",
    description: homeBanner.subtitle,
    path: "/",
    extra: [businessJsonLdMeta(args.matches)],
  });

/** The same for every visitor: shared-cacheable for a minute. */
export const headers: Route.HeadersFunction = () => sharedCacheHeaders();

/** No form of its own: no JavaScript (app/shell/page-scripts.ts). */
export const handle = NO_SCRIPTS;

export default function Home() {
  return <HomeContent />;
}
