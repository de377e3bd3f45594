import type { MetaDescriptor } from "react-router";
import { company, locationData } from "~/lib/company";
import { serviceCities } from "~/maps/config";

/**
 * Schema.org data for search engines (SPEC page-head): the company as a
 * HomeAndConstructionBusiness with its four locations; opening hours only
 * where the spec gives them (Flint and Saginaw: Monday to Friday 8 AM to 5 PM).
 */
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

function postalAddress(address: string, city: string) {
  const m = /^(.*),\s*([A-Z]{2})\s+(\d{5})$/.exec(city);
  return {
    "@type": "PostalAddress",
    streetAddress: address,
    addressLocality: m?.[1] ?? city,
    addressRegion: m?.[2] ?? "MI",
    postalCode: m?.[3],
    addressCountry: "US",
  };
}

/** E.164-style telephone from a tel: link. */
function telephone(href: string) {
  const digits = href.replace(/^tel:\+?1?/, "");
  return `+1-${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

export function businessJsonLd(siteUrl: string) {
  const url = `${siteUrl}/`;
  return {
    "@context": "https://schema.org",
    "@type": "HomeAndConstructionBusiness",
    "@id": `${url}#business`,
    name: company.name,
    url,
    logo: `${siteUrl}/images/logo.svg`,
    image: `${siteUrl}/images/og-default.png`,
    description:
      "Family-owned Michigan company, founded in 1936, selling, installing and servicing garage doors, openers, entry and patio doors, windows, seamless gutters, vinyl siding and commercial doors.",
    foundingDate: company.founded,
    telephone: telephone(company.phone.href),
    email: company.email,
    areaServed: serviceCities.map((c) => ({ "@type": "City", name: `${c.name}, Michigan` })),
    sameAs: company.social.map((s) => s.href),
    department: locationData.map((l) => ({
      "@type": "HomeAndConstructionBusiness",
      "@id": `${url}#location-${l.slug}`,
      name: `${company.name}: ${l.name}`,
      address: postalAddress(l.address, l.city),
      geo: { "@type": "GeoCoordinates", latitude: l.lat, longitude: l.lng },
      telephone: telephone(l.phone.href),
      hasMap: l.mapLink,
      ...(l.hours
        ? {
            openingHoursSpecification: [
              { "@type": "OpeningHoursSpecification", dayOfWeek: WEEKDAYS, opens: "08:00", closes: "17:00" },
            ],
          }
        : {}),
    })),
  };
}

type MetaMatches = ReadonlyArray<{ id: string; loaderData?: unknown; data?: unknown } | undefined>;

/** SITE_URL as the root loader provides it. */
export function siteUrlFromMatches(matches: MetaMatches): string {
  const root = matches.find((m) => m?.id === "root");
  return ((root?.loaderData ?? root?.data) as { siteUrl?: string } | undefined)?.siteUrl ?? "";
}

/** The JSON-LD descriptor for a route's `meta` (Home and About). */
export function businessJsonLdMeta(matches: MetaMatches): MetaDescriptor {
  return { "script:ld+json": businessJsonLd(siteUrlFromMatches(matches)) };
}
