import { company } from "~/lib/company";
import type { GalleryItem } from "../page-types";

/** The eight window types of the windows page (SPEC §3 "Window type card": name, link, image). */
export type WindowType = GalleryItem & { slug: string };

const designer = (slug: string) => `${company.windowDesignerUrl}?style=${slug}`;

function windowType(slug: string, name: string, text: string): WindowType {
  return {
    slug,
    name,
    image: `/images/windows/${slug}.svg`,
    text,
    link: { label: `Design your ${name} window`, to: designer(slug), external: true },
  };
}

export const windowTypes: WindowType[] = [
  windowType(
    "awning",
    "Awning",
    "Hinged at the top and opening outward, an awning window lets fresh air in while shedding a summer shower. A favourite over kitchen sinks and in basements.",
  ),
  windowType(
    "bay-bow",
    "Bay & Bow",
    "Three or more windows set at an angle push the room outward, adding a seat, a shelf for plants and light from three directions.",
  ),
  windowType(
    "casement",
    "Casement",
    "Cranked open on a side hinge, a casement catches passing breezes and seals tightly against its frame when closed: one of the most airtight styles we fit.",
  ),
  windowType(
    "double-hung",
    "Double Hung",
    "The classic Michigan window. Both sashes slide and tilt in, so you can clean the outside glass from inside your home.",
  ),
  windowType(
    "garden",
    "Garden",
    "A small glass greenhouse that projects from the wall, with a shelf for herbs and vented sides to let the steam out of the kitchen.",
  ),
  windowType(
    "glider",
    "Glider",
    "Sashes that slide sideways on a track: simple to operate, easy to clean and well suited to wide, low openings.",
  ),
  windowType(
    "hopper",
    "Hopper",
    "Hinged at the bottom and tilting in from the top. Compact and secure, the hopper is the usual answer for basements and bathrooms.",
  ),
  windowType(
    "picture",
    "Picture",
    "A large fixed pane with no sash to interrupt the view. Pair it with casements on either side when you also want fresh air.",
  ),
];

export const windowCatalog = {
  label: "Download the Window Catalog (PDF)",
  to: "/docs/dover-windows-catalog.pdf",
  download: "dover-windows-catalog.pdf",
};
