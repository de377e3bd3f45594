import { robotsTxt } from "~/content/seo.server";
import { cachePolicy } from "~/http/cache-control";
import { env } from "~/lib/env.server";

export function loader() {
  return new Response(robotsTxt(env().SITE_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8", ...cachePolicy.publicHour },
  });
}
