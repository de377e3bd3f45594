import type { CustomField } from "@db/schema/shop";

/** A category as the sidebar and SPEC §7's category list show it. */
export type CategoryView = { id: number; name: string };

/** A product as the pages read it: money in cents (the API turns it into dollars). */
export type ProductView = {
  id: number;
  name: string;
  priceCents: number;
  image: string;
  categoryId: number;
  description: string;
  customFields: CustomField[];
  stock: number;
  /** A visit we sell (the Services category): its stock is a number of visits, never shown (issue 38 item 5). */
  service: boolean;
};

/** The category whose products are work we do, not goods: no stock count is shown for them. */
export const SERVICE_CATEGORY = "Services";
