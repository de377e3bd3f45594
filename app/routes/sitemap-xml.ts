import { sitemapXml } from "~/content/seo.server";
import { cachePolicy } from "~/http/cache-control";
import { env } from "~/lib/env.server";

export function loader() {
  return new Response(sitemapXml(env().SITE_URL), {
    headers: { "Content-Type": "application/xml; charset=utf-8", ...cachePolicy.publicHour },
  });
}
