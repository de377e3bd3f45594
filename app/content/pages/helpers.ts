import { company } from "~/lib/company";
import type { Crumb, ImageRef, LinkRef } from "../page-types";

export const home: Crumb = { label: "Home", to: "/" };

export function crumbs(...trail: (Crumb | string)[]): Crumb[] {
  return [home, ...trail.map((c) => (typeof c === "string" ? { label: c } : c))];
}

/** A 640×400 product card illustration. */
export function cardImage(name: string, alt: string): ImageRef {
  return { src: `/images/cards/${name}.svg`, alt, width: 640, height: 400 };
}

export const links = {
  residentialQuote: { label: "Request a Free Quote", to: "/request-quote?type=residential", variant: "primary" },
  commercialQuote: { label: "Request a Commercial Quote", to: "/request-quote?type=commercial", variant: "primary" },
  requestQuote: { label: "Request a Quote", to: "/request-quote", variant: "primary" },
  requestService: { label: "Request Service", to: "/request-service", variant: "outline" },
  commercialService: { label: "Schedule Commercial Service", to: "/commercial-schedule-service", variant: "outline" },
  call: { label: `Call ${company.phone.display}`, to: company.phone.href, variant: "ghost" },
  emergency: {
    label: `24/7 Emergency: ${company.emergencyPhone.display}`,
    to: company.emergencyPhone.href,
    variant: "outline",
  },
  designTool: { label: "Design Your Door Online", to: company.designToolUrl, external: true, variant: "outline" },
  windowDesigner: {
    label: "Try the Window Designer",
    to: company.windowDesignerUrl,
    external: true,
    variant: "outline",
  },
  contact: { label: "Contact Us", to: "/contact", variant: "outline" },
} satisfies Record<string, LinkRef>;
