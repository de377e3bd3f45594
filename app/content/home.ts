import { company } from "~/lib/company";
import type { ContentBlock, ProductCard, StyleCard } from "./types";

export const homeBanner = {
  title: "Increase Your Home's Value and Curb Appeal",
  subtitle: "Garage doors, entry and patio doors, windows, gutters and siding, fitted by our own crews since 1936.",
  image: "home.svg",
};

/** The three content blocks under the home banner. */
export const homeBlocks: ContentBlock[] = [
  {
    title: "Family-Owned Since 1936",
    text: "Four generations of one Michigan family have fitted doors and windows in this state. We still answer our own phones, and we still stand behind every job.",
    icon: "family",
  },
  {
    title: "Installed by Our Own Crews",
    text: "No subcontractors. The people who measure your opening are trained and insured by us, and they clean up before they leave.",
    icon: "crew",
  },
  {
    title: "Service When You Need It",
    text: "Same or next day repairs from four locations, and a 24/7 emergency line for the door that will not close at midnight.",
    icon: "clock",
  },
];

export const residentialSection = {
  heading: "PRODUCTS AND SERVICES FOR YOUR HOME",
  subtitle: "Everything that opens, closes and keeps the weather out",
};

export const residentialCards: ProductCard[] = [
  {
    subtitle: "Residential",
    title: "Garage Doors",
    image: "/images/cards/garage-doors.svg",
    description: "Steel, wood-look and modern glass doors sized for your opening and insulated for Michigan winters.",
    features: [
      "Traditional, carriage and modern styles",
      "Insulated steel up to R-18",
      "Windows and decorative hardware",
      "Professional installation",
    ],
    link: "/residential-garage-doors",
    buttonLabel: "Explore Garage Doors",
  },
  {
    subtitle: "Residential",
    title: "Entry Doors",
    image: "/images/cards/entry-doors.svg",
    description: "A front door that welcomes guests, seals out drafts and locks securely.",
    features: ["Fibreglass and steel doors", "Sidelites and transoms", "Decorative glass options", "Multi-point locks"],
    link: "/residential-entry-doors",
    buttonLabel: "Explore Entry Doors",
  },
  {
    subtitle: "Residential",
    title: "Patio Doors",
    image: "/images/cards/patio-doors.svg",
    description: "Sliding and hinged patio doors that bring in light and glide smoothly for years.",
    features: [
      "Sliding and French styles",
      "Low-E insulated glass",
      "Internal blinds available",
      "Starting at $2,999 installed",
    ],
    link: "/residential-patio-doors",
    buttonLabel: "Explore Patio Doors",
  },
  {
    subtitle: "Residential",
    title: "Windows",
    image: "/images/cards/windows.svg",
    description: "Energy-efficient replacement windows in eight styles, measured and fitted by our crews.",
    features: [
      "Double hung, casement and more",
      "Bay, bow and garden windows",
      "Vinyl frames that never need paint",
      "Lifetime limited warranty",
    ],
    link: "/residential-windows",
    buttonLabel: "Explore Windows",
  },
  {
    subtitle: "Residential",
    title: "Seamless Gutters",
    image: "/images/cards/seamless-gutters.svg",
    description: "Gutters formed on site to the exact length of your roofline, with no seams to leak.",
    features: ["5 inch residential size", "Over 20 colours", "Matching downspouts", "Optional gutter guards"],
    link: "/residential-seamless-gutters",
    buttonLabel: "Explore Gutters",
  },
  {
    subtitle: "Residential",
    title: "Vinyl Siding",
    image: "/images/cards/vinyl-siding.svg",
    description: "Low-maintenance siding that refreshes your home's look and adds a layer of insulation.",
    features: [
      "Lap, shake and board-and-batten",
      "Fade-resistant colours",
      "Insulated backer options",
      "Trim and soffit included",
    ],
    link: "/residential-vinyl-siding",
    buttonLabel: "Explore Siding",
  },
  {
    subtitle: "Residential",
    title: "Openers & Accessories",
    image: "/images/cards/openers.svg",
    description: "Quiet, reliable openers with battery backup, smartphone control and keypads.",
    features: ["Belt, chain and wall-mount drives", "Battery backup", "Smartphone control", "Remotes and keypads"],
    link: "/residential-garage-door-openers",
    buttonLabel: "Explore Openers",
  },
  {
    subtitle: "Residential",
    title: "Schedule Service",
    image: "/images/cards/schedule-service.svg",
    description: "Broken spring, noisy opener or a door off its track: our technicians fix every brand.",
    features: ["25-point inspection", "Same or next day service", "24/7 emergency repair", "All makes and models"],
    link: "/request-quote",
    buttonLabel: "Request Service",
  },
];

export const commercialSection = {
  heading: "DOVER COMMERCIAL PRODUCTS AND SERVICES",
  subtitle: "Trusted Solutions for Every Business Entrance",
};

export const commercialCards: ProductCard[] = [
  {
    subtitle: "Commercial",
    title: "Sectional Doors",
    image: "/images/cards/sectional-doors.svg",
    description: "Insulated steel sectional doors for warehouses, shops and service bays.",
    features: ["D-165 and D-200 models", "Polyurethane insulation", "Full-view glass options", "High-cycle springs"],
    link: "/commercial-sectional-garage-doors",
    buttonLabel: "Explore Sectional Doors",
  },
  {
    subtitle: "Commercial",
    title: "Rolling Steel Doors",
    image: "/images/cards/rolling-steel-doors.svg",
    description: "Compact, tough rolling doors and grilles for openings where headroom is tight.",
    features: [
      "Service doors and counter shutters",
      "Insulated slats",
      "Fire-rated models",
      "Manual or motor operated",
    ],
    link: "/commercial-rolling-steel-doors",
    buttonLabel: "Explore Rolling Doors",
  },
  {
    subtitle: "Commercial",
    title: "Loading Docks",
    image: "/images/cards/loading-docks.svg",
    description: "Complete dock packages that keep freight moving and weather outside.",
    features: ["Dock seals and shelters", "Bumpers and lights", "Vehicle restraints", "Planned maintenance"],
    link: "/commercial-loading-docks",
    buttonLabel: "Explore Loading Docks",
  },
  {
    subtitle: "Commercial",
    title: "Dock Levelers",
    image: "/images/cards/dock-levelers.svg",
    description: "Hydraulic and mechanical levelers that bridge the gap between dock and trailer safely.",
    features: [
      "Hydraulic and mechanical",
      "Edge-of-dock levelers",
      "Capacity for heavy forklifts",
      "Repairs on all brands",
    ],
    link: "/commercial-loading-docks",
    buttonLabel: "Explore Dock Levelers",
  },
  {
    subtitle: "Commercial",
    title: "Commercial Openers",
    image: "/images/cards/commercial-openers.svg",
    description: "Trolley, jackshaft, hoist and gearhead operators matched to your door and traffic.",
    features: [
      "Six operator types",
      "Duty cycles to match use",
      "Safety edges and photo eyes",
      "Remote and app control",
    ],
    link: "/commercial-openers",
    buttonLabel: "Explore Openers",
  },
  {
    subtitle: "Commercial",
    title: "Hollow Metal Doors",
    image: "/images/cards/hollow-metal-doors.svg",
    description: "Durable steel doors and frames for entrances, stairwells and utility rooms.",
    features: [
      "Fire-rated assemblies",
      "Vision lites and louvers",
      "Panic and access hardware",
      "ADA-compliant openings",
    ],
    link: "/commercial-hollow-metal-doors",
    buttonLabel: "Explore Hollow Metal Doors",
  },
  {
    subtitle: "Commercial",
    title: "Bathroom Partitions",
    image: "/images/cards/bathroom-partitions.svg",
    description: "Toilet partitions and urinal screens that stand up to heavy daily use.",
    features: ["Powder-coated steel", "Solid plastic (HDPE)", "Phenolic and stainless", "ADA layouts"],
    link: "/commercial-bathroom-partitions",
    buttonLabel: "Explore Partitions",
  },
  {
    subtitle: "Commercial",
    title: "Commercial Service",
    image: "/images/cards/commercial-service.svg",
    description: "Repairs and preventive maintenance that keep every door on your property working.",
    features: [
      "24-hour emergency repair",
      "Preventive maintenance plans",
      "Fleet of stocked service trucks",
      "All makes and models",
    ],
    link: "/request-quote",
    buttonLabel: "Request Service",
  },
];

export const aboutGarageDoors = {
  heading: "Thinking About a New Garage Door?",
  text: [
    "Your garage door can cover a third of your home's front. A new one is among the few improvements that pay back most of their cost when you sell, and it makes the house feel new every time you pull into the driveway.",
    "Try colours, windows and hardware on a photo of your own home with the online design tool, browse the styles below, or talk it through with one of our designers.",
  ],
  designToolLabel: "Design Your Door Online",
  designToolUrl: company.designToolUrl,
  styleLinkLabel: "Browse Door Styles",
  image: "/images/about-garage-door.svg",
};

export const homeStyles: StyleCard[] = [
  {
    name: "Traditional",
    image: "/images/styles/traditional.svg",
    text: "Raised or recessed panels that suit almost any home.",
  },
  {
    name: "Country",
    image: "/images/styles/country.svg",
    text: "Carriage-house looks with cross bucks, windows and handles.",
  },
  {
    name: "Modern",
    image: "/images/styles/modern.svg",
    text: "Flush steel, aluminium and glass for clean, bold lines.",
  },
];
