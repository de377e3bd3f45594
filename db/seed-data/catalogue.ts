import type { CustomField } from "../schema/shop";

/** Placeholder catalogue for the shop (a later issue refines it). Prices include installation. */
export const seedCategories = ["Openers & Remotes", "Door Hardware", "Services", "Home Goods"] as const;

export const seedProducts: {
  name: string;
  priceCents: number;
  image: string;
  category: (typeof seedCategories)[number];
  description: string;
  stock: number;
  customFields: CustomField[];
}[] = [
  {
    name: "Belt-Drive Garage Door Opener",
    priceCents: 54900,
    image: "/images/cards/openers.svg",
    category: "Openers & Remotes",
    description: "A quiet belt-drive opener with battery backup, installed on your existing door.",
    stock: 12,
    customFields: [
      { name: "Horsepower", options: [{ label: "1/2 HP", price: 0 }, { label: "3/4 HP", price: 60 }] },
      { name: "Wi-Fi Module", options: [{ label: "None", price: 0 }, { label: "Smartphone control", price: 45 }] },
    ],
  },
  {
    name: "Two-Button Remote Control",
    priceCents: 3900,
    image: "/images/cards/commercial-openers.svg",
    category: "Openers & Remotes",
    description: "A spare visor remote programmed to your opener during a service visit.",
    stock: 40,
    customFields: [],
  },
  {
    name: "Keyless Entry Keypad",
    priceCents: 6900,
    image: "/images/cards/entry-doors.svg",
    category: "Door Hardware",
    description: "Weather-resistant wireless keypad mounted beside your garage door.",
    stock: 25,
    customFields: [{ name: "Finish", options: [{ label: "White", price: 0 }, { label: "Bronze", price: 10 }] }],
  },
  {
    name: "Garage Door Tune-Up",
    priceCents: 12995,
    image: "/images/cards/schedule-service.svg",
    category: "Services",
    description: "Our 25-point inspection with lubrication, balance check and safety-sensor alignment.",
    stock: 100,
    customFields: [{ name: "Doors", options: [{ label: "One door", price: 0 }, { label: "Two doors", price: 65 }] }],
  },
  {
    name: "Replacement Torsion Spring Pair",
    priceCents: 32900,
    image: "/images/cards/garage-doors.svg",
    category: "Services",
    description: "High-cycle torsion springs rated for about 10,000 cycles, installed and balanced.",
    stock: 30,
    customFields: [{ name: "Door width", options: [{ label: "Up to 9 ft", price: 0 }, { label: "16 ft double", price: 80 }] }],
  },
  {
    name: "Seamless Gutter Guard (per 20 ft)",
    priceCents: 18900,
    image: "/images/cards/seamless-gutters.svg",
    category: "Home Goods",
    description: "Micro-mesh guards that keep leaves out of 5 inch seamless gutters.",
    stock: 60,
    customFields: [{ name: "Colour", options: [{ label: "White", price: 0 }, { label: "Musket Brown", price: 0 }, { label: "Black", price: 15 }] }],
  },
];
