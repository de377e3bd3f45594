import type { CustomField } from "../schema/shop";

/**
 * The shop's catalogue (issue 17): what a Michigan door and window company
 * sells online, every price installed ('All pricing includes installation').
 * Base prices in cents; option add-ons in dollars, as SPEC §7's JSON carries
 * them (app/shop/pricing.ts turns them into cents). The first option of every
 * field is the one preselected (SPEC §3), so it is the plain choice at +$0.
 * Electronics, Services and Home Goods get their SPEC icons; the others the
 * default one. Images are small SVGs drawn for this project (public/images/shop).
 */
export const seedCategories = [
  "Garage Doors",
  "Garage Door Openers",
  "Electronics",
  "Entry & Patio Doors",
  "Windows",
  "Home Goods",
  "Services",
] as const;

type SeedProduct = {
  name: string;
  priceCents: number;
  image: string;
  category: (typeof seedCategories)[number];
  description: string;
  stock: number;
  customFields: CustomField[];
};

const img = (name: string) => `/images/shop/${name}.svg`;

const doorSize: CustomField = {
  name: "Door Size",
  options: [
    { label: "8 ft x 7 ft single", price: 0 },
    { label: "9 ft x 7 ft single", price: 85 },
    { label: "16 ft x 7 ft double", price: 740 },
  ],
};
const doorColour: CustomField = {
  name: "Color",
  options: [
    { label: "White", price: 0 },
    { label: "Almond", price: 0 },
    { label: "Sandtone", price: 0 },
    { label: "Walnut woodgrain", price: 295 },
    { label: "Black", price: 175 },
  ],
};
const insulation: CustomField = {
  name: "Insulation",
  options: [
    { label: "None (single-layer steel)", price: 0 },
    { label: "Polystyrene R-6.5", price: 210 },
    { label: "Polyurethane R-12.9", price: 420 },
  ],
};
const doorWindows: CustomField = {
  name: "Windows",
  options: [
    { label: "Solid top section", price: 0 },
    { label: "Plain glass top section", price: 240 },
    { label: "Decorative arched inserts", price: 325 },
  ],
};
const openerExtras: CustomField = {
  name: "Battery Backup",
  options: [
    { label: "Not included", price: 0 },
    { label: "Battery backup", price: 79.99 },
  ],
};
const gutterColour: CustomField = {
  name: "Color",
  options: [
    { label: "White", price: 0 },
    { label: "Musket Brown", price: 0 },
    { label: "Black", price: 15 },
  ],
};
const windowSize: CustomField = {
  name: "Size",
  options: [
    { label: "Up to 30 in x 48 in", price: 0 },
    { label: "Up to 36 in x 60 in", price: 110 },
    { label: "Up to 48 in x 72 in", price: 245 },
  ],
};
const windowGlass: CustomField = {
  name: "Glass",
  options: [
    { label: "Double-pane Low-E", price: 0 },
    { label: "Triple-pane Low-E with argon", price: 129.5 },
  ],
};
const frameColour: CustomField = {
  name: "Frame Color",
  options: [
    { label: "White", price: 0 },
    { label: "Almond", price: 0 },
    { label: "Black exterior", price: 95 },
  ],
};

export const seedProducts: SeedProduct[] = [
  // ── Garage Doors ──
  {
    name: "Classic Raised-Panel Steel Garage Door",
    priceCents: 1_349_00,
    image: img("garage-door"),
    category: "Garage Doors",
    description:
      "Our best seller: a 25-gauge steel door with a raised-panel face, galvanized tracks and new torsion springs, removed-and-hauled old door included.",
    stock: 14,
    customFields: [doorSize, doorColour, insulation, doorWindows],
  },
  {
    name: "Carriage House Steel Garage Door",
    priceCents: 2_195_00,
    image: img("carriage-door"),
    category: "Garage Doors",
    description:
      "The look of a swing-out carriage door with the convenience of an overhead one: recessed panels, decorative handles and hinges, insulated steel.",
    stock: 8,
    customFields: [doorSize, doorColour, doorWindows],
  },
  {
    name: "Modern Flush Aluminum and Glass Garage Door",
    priceCents: 4_650_00,
    image: img("glass-door"),
    category: "Garage Doors",
    description:
      "A full-view aluminum frame with tempered glass panels that fills the garage with daylight; a clean look for contemporary homes.",
    stock: 3,
    customFields: [
      doorSize,
      {
        name: "Glass",
        options: [
          { label: "Clear tempered", price: 0 },
          { label: "Frosted (satin etch)", price: 380 },
          { label: "Tinted gray", price: 260 },
        ],
      },
      {
        name: "Frame Finish",
        options: [
          { label: "Clear anodized", price: 0 },
          { label: "Black anodized", price: 450 },
        ],
      },
    ],
  },
  {
    name: "Insulated Flush-Panel Garage Door",
    priceCents: 1_595_00,
    image: img("garage-door"),
    category: "Garage Doors",
    description:
      "A smooth flush face with a polyurethane core: quiet, strong, and warm through a Michigan winter. Ideal for attached garages.",
    stock: 10,
    customFields: [doorSize, doorColour],
  },
  {
    name: "Economy Ribbed Steel Garage Door",
    priceCents: 895_00,
    image: img("garage-door"),
    category: "Garage Doors",
    description:
      "A dependable, non-insulated ribbed steel door for detached garages and pole barns, with a 10-year warranty on the sections.",
    stock: 0,
    customFields: [doorSize],
  },

  // ── Garage Door Openers ──
  {
    name: "Belt-Drive Garage Door Opener",
    priceCents: 549_00,
    image: img("opener"),
    category: "Garage Door Openers",
    description:
      "A whisper-quiet belt drive, ideal under a bedroom or living space. Two remotes, a wall button and safety sensors included.",
    stock: 18,
    customFields: [
      {
        name: "Horsepower",
        options: [
          { label: "1/2 HP", price: 0 },
          { label: "3/4 HP", price: 60 },
        ],
      },
      openerExtras,
    ],
  },
  {
    name: "Chain-Drive Garage Door Opener",
    priceCents: 429_00,
    image: img("opener"),
    category: "Garage Door Openers",
    description:
      "A rugged, budget-friendly chain drive for detached garages, with two remotes and a lighted wall button.",
    stock: 22,
    customFields: [
      {
        name: "Horsepower",
        options: [
          { label: "1/2 HP", price: 0 },
          { label: "3/4 HP", price: 45 },
        ],
      },
    ],
  },
  {
    name: "Wall-Mount Jackshaft Opener",
    priceCents: 899_00,
    image: img("opener"),
    category: "Garage Door Openers",
    description:
      "Mounts beside the door on the torsion bar, freeing the ceiling for storage or a car lift. Automatic deadbolt and battery backup built in.",
    stock: 6,
    customFields: [
      {
        name: "Mounting",
        options: [
          { label: "Left side", price: 0 },
          { label: "Right side", price: 0 },
        ],
      },
    ],
  },
  {
    name: "Screw-Drive Garage Door Opener",
    priceCents: 489_00,
    image: img("opener"),
    category: "Garage Door Openers",
    description:
      "Few moving parts and fast opening: a low-maintenance screw drive suited to heavier wood and steel doors.",
    stock: 9,
    customFields: [openerExtras],
  },

  // ── Electronics ──
  {
    name: "Three-Button Visor Remote",
    priceCents: 39_00,
    image: img("remote"),
    category: "Electronics",
    description:
      "A spare three-button remote, programmed to your opener and a second door or gate during a service visit.",
    stock: 45,
    customFields: [],
  },
  {
    name: "Wireless Keyless Entry Keypad",
    priceCents: 69_00,
    image: img("keypad"),
    category: "Electronics",
    description: "Open the door with a PIN: a backlit, weather-resistant keypad mounted beside your garage door.",
    stock: 30,
    customFields: [
      {
        name: "Finish",
        options: [
          { label: "White", price: 0 },
          { label: "Bronze", price: 10 },
        ],
      },
    ],
  },
  {
    name: "Smart Garage Wi-Fi Controller",
    priceCents: 129_00,
    image: img("smart-hub"),
    category: "Electronics",
    description:
      "Open, close and check your garage door from your phone, with alerts when it is left open. Works with most openers made since 1993.",
    stock: 25,
    customFields: [
      {
        name: "Doors Controlled",
        options: [
          { label: "One door", price: 0 },
          { label: "Two doors", price: 35 },
        ],
      },
    ],
  },
  {
    name: "Garage Camera with Two-Way Audio",
    priceCents: 189_00,
    image: img("camera"),
    category: "Electronics",
    description:
      "See who comes and goes and watch deliveries placed inside; mounts to the opener rail and records in HD.",
    stock: 12,
    customFields: [],
  },
  {
    name: "Replacement Safety Sensor Pair",
    priceCents: 89_00,
    image: img("sensor"),
    category: "Electronics",
    description: "New photo-eye sensors, aligned and tested, for an opener that reverses or will not close.",
    stock: 40,
    customFields: [],
  },

  // ── Entry & Patio Doors ──
  {
    name: "Fiberglass Six-Panel Entry Door",
    priceCents: 2_450_00,
    image: img("entry-door"),
    category: "Entry & Patio Doors",
    description:
      "A smooth fiberglass door that will not warp, rot or dent, pre-hung in a composite frame with new weatherstripping and threshold.",
    stock: 7,
    customFields: [
      {
        name: "Sidelites",
        options: [
          { label: "No sidelites", price: 0 },
          { label: "One sidelite", price: 650 },
          { label: "Two sidelites", price: 1_180 },
        ],
      },
      {
        name: "Hardware",
        options: [
          { label: "Satin nickel", price: 0 },
          { label: "Oil-rubbed bronze", price: 45 },
          { label: "Smart lock, satin nickel", price: 249 },
        ],
      },
    ],
  },
  {
    name: "Steel Entry Door with Decorative Glass",
    priceCents: 1_895_00,
    image: img("entry-door"),
    category: "Entry & Patio Doors",
    description:
      "An insulated steel door with a decorative oval glass insert that lets light in and keeps the view out.",
    stock: 5,
    customFields: [
      {
        name: "Glass Style",
        options: [
          { label: "Oval, beveled", price: 0 },
          { label: "Half-lite, frosted", price: 120 },
        ],
      },
    ],
  },
  {
    name: "Vinyl Sliding Patio Door",
    priceCents: 2_150_00,
    image: img("patio-door"),
    category: "Entry & Patio Doors",
    description: "A two-panel vinyl slider with Low-E glass, a multi-point lock and a smooth tandem roller system.",
    stock: 6,
    customFields: [
      {
        name: "Width",
        options: [
          { label: "6 ft", price: 0 },
          { label: "8 ft", price: 420 },
        ],
      },
      {
        name: "Internal Blinds",
        options: [
          { label: "None", price: 0 },
          { label: "Blinds between the glass", price: 385 },
        ],
      },
    ],
  },
  {
    name: "Storm Door with Retractable Screen",
    priceCents: 595_00,
    image: img("entry-door"),
    category: "Entry & Patio Doors",
    description:
      "A full-view storm door with a screen that rolls away when you do not need it; protects your entry door from the weather.",
    stock: 11,
    customFields: [frameColour],
  },

  // ── Windows ──
  {
    name: "Double-Hung Vinyl Replacement Window",
    priceCents: 649_00,
    image: img("window"),
    category: "Windows",
    description:
      "Both sashes tilt in for cleaning; welded vinyl frame, Low-E glass and a lifetime warranty. Price per window.",
    stock: 60,
    customFields: [windowSize, windowGlass, frameColour],
  },
  {
    name: "Casement Window",
    priceCents: 789_00,
    image: img("window"),
    category: "Windows",
    description: "Cranks open like a door for full ventilation and seals tight when closed. Price per window.",
    stock: 24,
    customFields: [windowSize, windowGlass],
  },
  {
    name: "Bay Window",
    priceCents: 3_450_00,
    image: img("bay-window"),
    category: "Windows",
    description:
      "Three windows angled out from the wall for more light and a deeper sill; includes the seat board and insulated roof.",
    stock: 4,
    customFields: [
      {
        name: "Seat Board",
        options: [
          { label: "Oak veneer", price: 0 },
          { label: "Birch veneer", price: 0 },
          { label: "Cushioned seat", price: 260 },
        ],
      },
      windowGlass,
    ],
  },
  {
    name: "Sliding Basement Window",
    priceCents: 429_00,
    image: img("window"),
    category: "Windows",
    description:
      "A slider sized for basement openings, replacing old steel or glass block with an insulated vinyl window.",
    stock: 20,
    customFields: [frameColour],
  },

  // ── Home Goods ──
  {
    name: "Micro-Mesh Gutter Guard (per 20 ft)",
    priceCents: 189_00,
    image: img("gutter"),
    category: "Home Goods",
    description: "Stainless micro-mesh guards that keep leaves and shingle grit out of 5 inch seamless gutters.",
    stock: 80,
    customFields: [gutterColour],
  },
  {
    name: "Garage Door Bottom Weather Seal",
    priceCents: 79_00,
    image: img("weather-seal"),
    category: "Home Goods",
    description:
      "A new bottom seal and retainer that keeps out water, snow and mice; fitted to single or double doors.",
    stock: 50,
    customFields: [
      {
        name: "Door Width",
        options: [
          { label: "Up to 9 ft", price: 0 },
          { label: "Up to 18 ft", price: 40 },
        ],
      },
    ],
  },
  {
    name: "Seamless Downspout Extension",
    priceCents: 49_00,
    image: img("gutter"),
    category: "Home Goods",
    description: "Carries rain water ten feet from your foundation; hinged so it lifts out of the way for mowing.",
    stock: 35,
    customFields: [gutterColour],
  },
  {
    name: "Decorative Garage Door Hardware Kit",
    priceCents: 99_00,
    image: img("hardware-kit"),
    category: "Home Goods",
    description: "Magnetic carriage-style handles and hinges that give a plain steel door a custom look in minutes.",
    stock: 28,
    customFields: [
      {
        name: "Style",
        options: [
          { label: "Spade", price: 0 },
          { label: "Rounded", price: 0 },
          { label: "Hammered", price: 20 },
        ],
      },
    ],
  },

  // ── Services ──
  {
    name: "Garage Door Tune-Up",
    priceCents: 129_95,
    image: img("service"),
    category: "Services",
    description:
      "Our 25-point inspection with lubrication, balance check, hardware tightening and safety-sensor alignment.",
    stock: 100,
    customFields: [
      {
        name: "Doors",
        options: [
          { label: "One door", price: 0 },
          { label: "Two doors", price: 65 },
        ],
      },
    ],
  },
  {
    name: "Torsion Spring Replacement (pair)",
    priceCents: 329_00,
    image: img("spring"),
    category: "Services",
    description:
      "High-cycle torsion springs rated for about 10,000 cycles, installed and the door balanced by a certified technician.",
    stock: 30,
    customFields: [
      {
        name: "Spring Life",
        options: [
          { label: "Standard (10,000 cycles)", price: 0 },
          { label: "Extended (25,000 cycles)", price: 95 },
        ],
      },
    ],
  },
  {
    name: "Gutter Cleaning and Inspection",
    priceCents: 149_00,
    image: img("service"),
    category: "Services",
    description:
      "We clear gutters and downspouts, flush them, and check every hanger and seam on your home; the price is for a single-story home, with a two-story home as an option.",
    stock: 100,
    customFields: [
      {
        name: "Home Size",
        options: [
          { label: "Single story", price: 0 },
          { label: "Two story", price: 75 },
        ],
      },
    ],
  },
  {
    name: "Opener Installation and Haul-Away",
    priceCents: 179_00,
    image: img("service"),
    category: "Services",
    description: "We install an opener you already own and take the old one away; includes programming two remotes.",
    stock: 100,
    customFields: [],
  },
];
