import { HomeContent } from "~/content/sections/HomeContent";
import { homeBanner } from "~/content/home";
import { pageHead } from "~/shell/page-head";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = (args) =>
  pageHead(args, {
    title: "Garage Doors, Windows, Doors, Gutters & Siding in Michigan",
    description: homeBanner.subtitle,
    path: "/",
  });

export default function Home() {
  return <HomeContent />;
}
