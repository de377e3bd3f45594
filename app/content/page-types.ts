import type { FormBootstrapData } from "~/forms/ui/LeadForm";
import type { ServiceAreaMapData } from "~/maps/types";
import type { ReviewView } from "~/reviews/types";
import type { LocationReviewCard } from "./data/location-reviews";
import type { ProductCard } from "./types";

/**
 * Marketing pages as data. A page is a banner plus an ordered list of
 * sections; each section kind has one component (app/content/sections).
 * Everything here is plain serialisable data: it travels as loader data, so
 * a page's copy is never bundled into the browser's JavaScript.
 */

export type IconName =
  | "check"
  | "clock"
  | "phone"
  | "shield"
  | "bolt"
  | "tools"
  | "leaf"
  | "star"
  | "home"
  | "truck"
  | "gear"
  | "drop"
  | "lock"
  | "fire"
  | "users"
  | "app"
  | "gift"
  | "map";

export type ImageRef = { src: string; alt: string; width: number; height: number };

export type LinkRef = {
  label: string;
  to: string;
  /** Opens in a new tab with a visually hidden notice. */
  external?: boolean;
  variant?: "primary" | "outline" | "ghost";
  /** A file to download (PDF): shows its size/type hint. */
  download?: string;
};

export type Feature = { title: string; text: string; icon?: IconName };

export type GalleryItem = { name: string; image: string; text: string; link?: LinkRef };

export type AccordionItem = {
  /** Stable id, used as the anchor of the item. */
  id: string;
  title: string;
  /** Short line shown next to the title (e.g. "Full-time · Flint"). */
  meta?: string;
  paragraphs: string[];
  lists?: { heading: string; items: string[] }[];
  facts?: { label: string; value: string }[];
  action?: LinkRef;
};

export type Model = {
  name: string;
  headline: string;
  text: string;
  specs: { label: string; value: string }[];
  pdf: LinkRef;
  image: ImageRef;
};

export type VideoRef = {
  /** Small local WebM file under public/media. */
  src: string;
  poster: string;
  width: number;
  height: number;
  /** Accessible name of the player. */
  title: string;
  /** What the (silent) video shows, in words. */
  transcript: string;
};

export type Section =
  | {
      kind: "intro";
      id?: string;
      heading: string;
      paragraphs: string[];
      image?: ImageRef;
      highlight?: string;
      links?: LinkRef[];
      tint?: boolean;
    }
  | { kind: "features"; id?: string; heading: string; intro?: string; items: Feature[]; tint?: boolean }
  | { kind: "cards"; id: string; heading: string; subtitle?: string; cards: ProductCard[] }
  | {
      kind: "gallery";
      id: string;
      heading: string;
      intro?: string;
      items: GalleryItem[];
      imageSize: { width: number; height: number };
      links?: LinkRef[];
      tint?: boolean;
    }
  | {
      kind: "accordion";
      id: string;
      heading: string;
      intro?: string;
      /** Name shared by the <details> elements: the browser keeps one open at a time. */
      group: string;
      items: AccordionItem[];
      tint?: boolean;
    }
  | { kind: "checklist"; id?: string; heading: string; intro?: string; items: string[]; tint?: boolean }
  | { kind: "steps"; id?: string; heading: string; intro?: string; steps: Feature[]; tint?: boolean }
  | { kind: "models"; id: string; heading: string; intro?: string; models: Model[]; tint?: boolean }
  | {
      kind: "swatches";
      id?: string;
      heading: string;
      intro?: string;
      colours: { name: string; hex: string }[];
      note?: string;
      tint?: boolean;
    }
  | {
      kind: "specs";
      id?: string;
      heading: string;
      intro?: string;
      rows: { label: string; value: string }[];
      links?: LinkRef[];
      tint?: boolean;
    }
  | {
      kind: "timeline";
      id?: string;
      heading: string;
      items: { year: string; title: string; text: string }[];
      tint?: boolean;
    }
  | { kind: "video"; id?: string; heading: string; text?: string; video: VideoRef; links?: LinkRef[]; tint?: boolean }
  | { kind: "cta"; id?: string; heading: string; text: string; links: LinkRef[] }
  /**
   * Plain reading (the privacy notice, the terms): paragraphs, then a bulleted list, then one entry
   * per item (a form, a cookie) with its facts as label and value, then closing paragraphs. Text
   * takes [label](href) links.
   */
  | {
      kind: "prose";
      id: string;
      heading: string;
      paragraphs?: string[];
      list?: string[];
      entries?: { title: string; facts: { label: string; value: string }[] }[];
      after?: string[];
      tint?: boolean;
    }
  /** Where the simple quote form goes once the forms capability provides it. */
  | { kind: "quote-form"; type: "residential" | "commercial" }
  /** Sections filled from loader data. */
  | { kind: "service-map"; heading: string; intro: string }
  | { kind: "location-reviews"; heading: string; intro?: string }
  | { kind: "reviews"; heading: string; intro?: string };

export type Crumb = { label: string; to?: string };

export type ContentPage = {
  path: string;
  /** <title> and social title (the site name is appended). */
  title: string;
  description: string;
  banner: { image: string; title: string; subtitle?: string; crumbs: Crumb[] };
  sections: Section[];
  /** Structured data for search engines (SPEC page-head). */
  jsonLd?: "business";
};

/** What the content route's loader returns. */
export type ContentPageData =
  | {
      found: true;
      page: ContentPage;
      map?: ServiceAreaMapData;
      /** The Maps JavaScript API (browser) key, only when configured. */
      mapsKey?: string;
      reviews?: ReviewView[];
      locationReviews?: LocationReviewCard[];
      /** Captcha and honeypot of the embedded simple quote form (pages with a quote-form section). */
      leadForm?: FormBootstrapData;
    }
  | { found: false };
