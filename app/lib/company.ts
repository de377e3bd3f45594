/**
 * Company facts in one place (DECISIONS 23). Every phone number is in the
 * fictional 555-01xx range and every address at example.com.
 */
export type Phone = { display: string; href: string };

function phone(areaCode: string, line: string): Phone {
  const display = `(${areaCode}) 555-${line}`;
  return { display, href: telHref(display) };
}

/** A US phone number as the site writes it, "(810) 555-0100", where it stands in running text. */
export const PHONE_IN_TEXT = /\(\d{3}\) \d{3}-\d{4}/;

/** The tel: link of a number written as the site writes it: "tel:+18105550100". */
export function telHref(display: string): string {
  return `tel:+1${display.replace(/\D/g, "")}`;
}

export const company = {
  name: "Dover Doors & Windows",
  shortName: "Dover",
  founded: "1936-07-03",
  foundedText: "3 July 1936",
  phone: phone("810", "0100"),
  emergencyPhone: phone("810", "0199"),
  email: "info@example.com",
  careersEmail: "careers@example.com",
  showroomHours: "Monday to Friday 8 AM to 5 PM, weekends by appointment",
  responseTime: "48 hours",
  serviceRadiusMiles: 50,
  designToolUrl: "https://doorvisualizer.example.com/",
  windowDesignerUrl: "https://windowdesigner.example.com/",
  /** Commercial mobile app listings (fictional ids). */
  appStoreUrl: "https://apps.apple.com/us/app/dover-commercial/id0000000000",
  playStoreUrl: "https://play.google.com/store/apps/details?id=com.example.dovercommercial",
  social: [
    { name: "Facebook", href: "https://www.facebook.com/example" },
    { name: "Instagram", href: "https://www.instagram.com/example" },
    { name: "Twitter", href: "https://twitter.com/example" },
    { name: "LinkedIn", href: "https://www.linkedin.com/company/example" },
    { name: "Pinterest", href: "https://www.pinterest.com/example" },
    { name: "TikTok", href: "https://www.tiktok.com/@example" },
  ],
} as const;

export type LocationData = {
  slug: string;
  name: string;
  address: string;
  city: string;
  hours?: string;
  phone: Phone;
  mapLink: string;
  lat: number;
  lng: number;
};

function directions(address: string, city: string) {
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(`${address}, ${city}`)}`;
}

const weekdayHours = "Mon–Fri 8 AM – 5 PM · Weekends by appointment";

/** The four locations (SPEC §3), with real city coordinates. Hours only for Flint and Saginaw. */
export const locationData: LocationData[] = [
  {
    slug: "flint",
    name: "Flint Showroom",
    address: "4120 Corunna Road",
    city: "Flint, MI 48532",
    hours: weekdayHours,
    phone: phone("810", "0101"),
    mapLink: directions("4120 Corunna Road", "Flint, MI 48532"),
    lat: 43.0125,
    lng: -83.6875,
  },
  {
    slug: "saginaw",
    name: "Saginaw Showroom",
    address: "2875 Bay Road",
    city: "Saginaw, MI 48603",
    hours: weekdayHours,
    phone: phone("989", "0102"),
    mapLink: directions("2875 Bay Road", "Saginaw, MI 48603"),
    lat: 43.4195,
    lng: -83.9508,
  },
  {
    slug: "lansing",
    name: "Lansing",
    address: "1610 East Kalamazoo Street",
    city: "Lansing, MI 48912",
    phone: phone("517", "0103"),
    mapLink: directions("1610 East Kalamazoo Street", "Lansing, MI 48912"),
    lat: 42.7325,
    lng: -84.5555,
  },
  {
    slug: "pontiac",
    name: "Pontiac",
    address: "655 Orchard Lake Road",
    city: "Pontiac, MI 48341",
    phone: phone("248", "0104"),
    mapLink: directions("655 Orchard Lake Road", "Pontiac, MI 48341"),
    lat: 42.6389,
    lng: -83.291,
  },
];
