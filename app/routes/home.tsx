import { HomeContent } from "~/content/sections/HomeContent";
import { homeBanner } from "~/content/home";
import { businessJsonLdMeta } from "~/content/structured-data";
import { sharedCacheHeaders } from "~/http/page-cache.server";
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

export default function Home() {
  return <HomeContent />;
}
