import { company } from "~/lib/company";
import { faqItems, hollowMetalFaqs } from "../data/faqs";
import { operators, SPRING_LIFE, type Operator } from "../data/operators";
import type { ContentPage, Model } from "../page-types";
import { cardImage, crumbs, links } from "./helpers";

const banner = "commercial.svg";

export const sectionalModels: Model[] = [
  {
    name: "D-165",
    headline: "1 5/8 inch insulated steel sectional door",
    text: "Our everyday workhorse: a polyurethane-insulated, steel-back door for warehouses, shops and service bays that need a sturdy, efficient door at a sensible price.",
    specs: [
      { label: "Thickness", value: "1 5/8 inch" },
      { label: "Construction", value: "Steel / polyurethane / steel" },
      { label: "Thermal value", value: "R-12.9 (calculated)" },
      { label: "Maximum size", value: "24 ft 2 in wide × 20 ft high" },
      { label: "Section joint", value: "Tongue and groove with thermal break" },
    ],
    pdf: {
      label: "D-165 spec sheet (PDF)",
      to: "/docs/d-165-spec-sheet.pdf",
      download: "d-165-spec-sheet.pdf",
      variant: "outline",
    },
    image: cardImage("sectional-doors", "An insulated steel sectional door on a warehouse"),
  },
  {
    name: "D-200",
    headline: "2 inch high-performance insulated sectional door",
    text: "A thicker door for heated buildings, cold storage and tall openings, with heavier steel skins, a higher R-value and optional wind-load reinforcement.",
    specs: [
      { label: "Thickness", value: "2 inch" },
      { label: "Construction", value: "Steel / polyurethane / steel" },
      { label: "Thermal value", value: "R-17.5 (calculated)" },
      { label: "Maximum size", value: "26 ft 2 in wide × 24 ft high" },
      { label: "Section joint", value: "Tongue and groove with thermal break and joint seal" },
    ],
    pdf: {
      label: "D-200 spec sheet (PDF)",
      to: "/docs/d-200-spec-sheet.pdf",
      download: "d-200-spec-sheet.pdf",
      variant: "outline",
    },
    image: cardImage("sectional-doors", "A tall insulated sectional door on a heated building"),
  },
];

const sectional: ContentPage = {
  path: "/commercial-sectional-garage-doors",
  title: "Commercial Sectional Garage Doors",
  description:
    "Insulated steel sectional doors for business: the D-165 (1 5/8 inch) and D-200 (2 inch) models, with spec sheets, installed and serviced by Dover.",
  banner: {
    image: banner,
    title: "Commercial Sectional Garage Doors",
    subtitle: "Insulated steel doors that keep business moving and the heat inside.",
    crumbs: crumbs("Sectional Garage Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Doors for Buildings That Work Hard",
      paragraphs: [
        "Sectional doors are the most common commercial door in Michigan for good reason: they open vertically, take up little room inside, and seal well against wind and snow. We supply, install and service them for warehouses, municipal garages, dealerships, farms and factories.",
        "Choose the D-165 or the thicker D-200 below, add windows or full-view sections for daylight, and pair the door with an operator sized for your traffic.",
      ],
      image: cardImage("sectional-doors", "A row of commercial sectional doors"),
      links: [links.commercialQuote, { label: "Commercial Openers", to: "/commercial-openers", variant: "outline" }],
    },
    {
      kind: "models",
      id: "models",
      heading: "Two Models, One Standard of Quality",
      intro: "Download the spec sheets for dimensions, materials and options.",
      models: sectionalModels,
      tint: true,
    },
    {
      kind: "features",
      heading: "Options",
      items: [
        {
          icon: "star",
          title: "Windows and full-view sections",
          text: "Insulated glass or polycarbonate for daylight and visibility.",
        },
        {
          icon: "gear",
          title: "High-cycle springs",
          text: "Standard springs are rated for about 10,000 cycles; high-cycle springs last several times longer.",
        },
        {
          icon: "shield",
          title: "Wind-load reinforcement",
          text: "Struts and heavier hardware for exposed and lakeshore sites.",
        },
        {
          icon: "lock",
          title: "Lift types",
          text: "Standard, high-lift and vertical-lift track to suit your ceiling.",
        },
      ],
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

const rolling: ContentPage = {
  path: "/commercial-rolling-steel-doors",
  title: "Rolling Steel Doors",
  description:
    "Rolling steel service doors, counter shutters, insulated and fire-rated doors and security grilles, supplied, installed and serviced by Dover.",
  banner: {
    image: banner,
    title: "Rolling Steel Doors",
    subtitle: "Compact, tough and secure where headroom is tight.",
    crumbs: crumbs("Rolling Steel Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Strength That Rolls Out of the Way",
      paragraphs: [
        "A rolling steel door coils into a compact drum above the opening, so it needs almost no headroom and leaves the ceiling free. Interlocking steel slats make it one of the most secure and abuse-resistant doors you can put on a building.",
        "We install new rolling doors and grilles, convert manual doors to motor operation, and repair bent slats, worn guides and tired springs on doors of any brand.",
      ],
      image: cardImage("rolling-steel-doors", "A rolling steel door on a loading bay"),
      links: [links.commercialQuote, links.commercialService],
    },
    {
      kind: "features",
      heading: "Types of Rolling Doors",
      items: [
        { icon: "truck", title: "Service doors", text: "Heavy-duty doors for loading bays, warehouses and garages." },
        {
          icon: "lock",
          title: "Counter shutters",
          text: "Compact shutters that secure service counters, pharmacies and concessions.",
        },
        {
          icon: "fire",
          title: "Fire-rated doors",
          text: "Automatic-closing doors that seal an opening when the alarm sounds.",
        },
        { icon: "leaf", title: "Insulated slats", text: "Foam-filled slats for heated buildings and noise control." },
      ],
      tint: true,
    },
    {
      kind: "checklist",
      heading: "Rolling Door Services",
      items: [
        "New door supply and installation",
        "Security grilles for storefronts and malls",
        "Manual-to-motor conversions",
        "Spring replacement and re-tensioning",
        "Slat and guide repair",
        "Annual fire door drop testing",
      ],
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

const docks: ContentPage = {
  path: "/commercial-loading-docks",
  title: "Loading Docks & Dock Levelers",
  description:
    "Dock levelers, seals, shelters, bumpers and vehicle restraints: complete loading dock equipment, installation and planned maintenance from Dover.",
  banner: {
    image: banner,
    title: "Loading Docks & Dock Levelers",
    subtitle: "Safer, faster loading from the leveler to the seal.",
    crumbs: crumbs("Loading Docks"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Keep Freight Moving",
      paragraphs: [
        "A loading dock is only as good as its weakest piece of equipment. We supply and maintain the whole package (levelers, seals, bumpers, lights, restraints and the doors themselves) so your team can load safely in every season.",
        "When something breaks, our commercial technicians respond around the clock, because a dock that cannot be used is a shipment that cannot leave.",
      ],
      image: cardImage("loading-docks", "A loading dock with a trailer backed up to a door"),
      links: [links.commercialQuote, links.commercialService],
    },
    {
      kind: "features",
      heading: "Dock Equipment",
      items: [
        {
          icon: "gear",
          title: "Dock levelers",
          text: "Hydraulic, mechanical and edge-of-dock levelers with capacities for heavy forklifts.",
        },
        {
          icon: "leaf",
          title: "Seals and shelters",
          text: "Close the gap around the trailer to keep out weather and keep in heat.",
        },
        {
          icon: "shield",
          title: "Bumpers and restraints",
          text: "Protect the building and stop trailers from creeping away from the dock.",
        },
        {
          icon: "bolt",
          title: "Dock lights",
          text: "LED lights that brighten the trailer interior for faster, safer loading.",
        },
      ],
      tint: true,
    },
    {
      kind: "checklist",
      heading: "Planned Maintenance Visits Include",
      items: [
        "Leveler hydraulic and hinge inspection",
        "Lip and deck plate check",
        "Seal and shelter condition report",
        "Bumper wear measurement",
        "Restraint function test",
        "Dock door and operator service",
      ],
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

const hollowMetal: ContentPage = {
  path: "/commercial-hollow-metal-doors",
  title: "Hollow Metal Doors & Frames",
  description:
    "Hollow metal doors and frames, fire-rated assemblies and commercial hardware, supplied and installed by Dover. Key benefits and answers to common questions.",
  banner: {
    image: banner,
    title: "Hollow Metal Doors & Frames",
    subtitle: "Steel doors that stand up to traffic, weather and fire codes.",
    crumbs: crumbs("Hollow Metal Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "The Backbone of Commercial Entrances",
      paragraphs: [
        "Schools, offices, plants and apartment buildings depend on hollow metal doors at their entrances, stairwells and utility rooms. We supply doors and frames to size, prepared for your hardware, and install them plumb, square and code-compliant.",
      ],
      image: cardImage("hollow-metal-doors", "A steel door and frame with a vision lite"),
      links: [links.commercialQuote],
    },
    {
      kind: "features",
      id: "benefits",
      heading: "Key Benefits",
      items: [
        {
          icon: "shield",
          title: "Durability",
          text: "Steel faces resist dents, impacts and forced entry for decades.",
        },
        { icon: "fire", title: "Fire protection", text: "Labelled assemblies from 20 minutes to 3 hours." },
        {
          icon: "leaf",
          title: "Energy efficiency",
          text: "Insulated cores and thermal-break frames for exterior openings.",
        },
        { icon: "lock", title: "Security hardware", text: "Prepared for exit devices, closers and access control." },
        {
          icon: "tools",
          title: "Low maintenance",
          text: "Primed or factory-painted finishes that only need an occasional touch-up.",
        },
        { icon: "users", title: "Accessibility", text: "Sizes and hardware for ADA-compliant openings." },
      ],
      tint: true,
    },
    {
      kind: "accordion",
      id: "faq",
      heading: "Frequently Asked Questions",
      group: "hollow-metal-faq",
      items: faqItems(hollowMetalFaqs),
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

const partitions: ContentPage = {
  path: "/commercial-bathroom-partitions",
  title: "Bathroom Partitions",
  description:
    "Toilet partitions and urinal screens in powder-coated steel, solid plastic, phenolic and stainless steel, supplied and installed by Dover.",
  banner: {
    image: banner,
    title: "Bathroom Partitions",
    subtitle: "Restroom partitions that look good and take a beating.",
    crumbs: crumbs("Bathroom Partitions"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Built for Heavy Daily Use",
      paragraphs: [
        "Restroom partitions take more abuse than almost anything else in a building. We help you choose the material that fits your traffic, moisture and budget, lay out accessible stalls, and install everything level and secure.",
        "We also replace doors, hinges, latches and panels on existing partitions, often in a single visit.",
      ],
      image: cardImage("bathroom-partitions", "A row of restroom partitions"),
      links: [links.commercialQuote],
    },
    {
      kind: "features",
      heading: "Materials",
      items: [
        {
          icon: "star",
          title: "Powder-coated steel",
          text: "An economical choice for offices and light-traffic restrooms.",
        },
        {
          icon: "drop",
          title: "Solid plastic (HDPE)",
          text: "Waterproof, graffiti-resistant and ideal for schools, pools and parks.",
        },
        { icon: "shield", title: "Phenolic", text: "Dense and scratch-resistant, for high-traffic and humid spaces." },
        {
          icon: "check",
          title: "Stainless steel",
          text: "A premium, hygienic finish for airports, hospitals and restaurants.",
        },
      ],
      tint: true,
    },
    {
      kind: "checklist",
      heading: "Mounting Styles and Accessories",
      items: [
        "Floor-mounted, overhead-braced",
        "Ceiling-hung",
        "Floor-to-ceiling",
        "Urinal screens",
        "ADA stall layouts and grab bars",
        "Replacement hinges, latches and coat hooks",
      ],
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

const mobileApp: ContentPage = {
  path: "/commercial-mobile-app",
  title: "Dover Commercial Mobile App",
  description:
    "Schedule commercial door service, track technicians and keep your door records in one place with the Dover Commercial app for iOS and Android.",
  banner: {
    image: banner,
    title: "Dover Commercial Mobile App",
    subtitle: "Your doors, your service history and our technicians, in your pocket.",
    crumbs: crumbs("Commercial Mobile App"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Service at the Tap of a Button",
      paragraphs: [
        "Facility managers told us they wanted fewer phone calls and more information. The Dover Commercial app lets you report a problem with a photo, see when your technician will arrive and keep every door's service record in one place.",
        "The app is free for our commercial customers. Download it, sign in with the account number on your invoice and your doors are already listed.",
      ],
      image: {
        src: "/images/app-phone.svg",
        alt: "A smartphone showing the Dover Commercial app",
        width: 400,
        height: 600,
      },
      links: [
        { label: "Download on the App Store", to: company.appStoreUrl, external: true, variant: "primary" },
        { label: "Get it on Google Play", to: company.playStoreUrl, external: true, variant: "primary" },
      ],
    },
    {
      kind: "video",
      id: "demo",
      heading: "See the App in Action",
      text: "A one-minute tour: reporting a stuck door, booking the visit and following the technician to your site.",
      video: {
        src: "/media/dover-commercial-app-demo.webm",
        poster: "/images/content/app-demo-poster.svg",
        width: 640,
        height: 360,
        title: "Dover Commercial app demo",
        transcript:
          "The demo opens the app's door list, picks Dock Door 3, reports that it is stuck half open with a photo, chooses the earliest emergency slot, and then follows the technician's truck on the map until the visit is marked complete with a service report.",
      },
      tint: true,
    },
    {
      kind: "features",
      heading: "What You Can Do in the App",
      items: [
        {
          icon: "tools",
          title: "Request service",
          text: "Report a problem with photos and choose an emergency or scheduled visit.",
        },
        { icon: "map", title: "Track your technician", text: "See who is coming and when they will arrive." },
        {
          icon: "check",
          title: "Door records",
          text: "Every door, operator and dock leveler with its service history and warranty.",
        },
        {
          icon: "clock",
          title: "Maintenance reminders",
          text: "Know when planned maintenance is due and book it in two taps.",
        },
      ],
    },
    {
      kind: "cta",
      heading: "Get the Dover Commercial App",
      text: "Free for iPhone and Android. Not a commercial customer yet? Ask us about a preventive maintenance plan.",
      links: [
        { label: "Download on the App Store", to: company.appStoreUrl, external: true, variant: "primary" },
        { label: "Get it on Google Play", to: company.playStoreUrl, external: true, variant: "primary" },
        links.commercialService,
      ],
    },
  ],
};

const openersList: ContentPage = {
  path: "/commercial-openers",
  title: "Commercial Door Openers",
  description:
    "Dock door, gearhead hoist, gearhead trolley, hoist, jackshaft and trolley operators for commercial doors, sized to your traffic by Dover.",
  banner: {
    image: banner,
    title: "Commercial Door Openers",
    subtitle: "Six operator types, matched to your door and the way you use it.",
    crumbs: crumbs("Commercial Openers"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Choosing the Right Operator",
      paragraphs: [
        "The right operator depends on three questions: how big and heavy the door is, how often it opens, and where there is room to mount a motor. Light-duty units burn out on busy doors; heavy-duty units are wasted on doors that open twice a day.",
        "Standard trolley, jackshaft and hoist operators are rated for a duty cycle of 25 cycles per hour and up to 90 cycles per day. Gearhead operators handle more than 90 cycles per day. Our dock door operator opens 50% faster than a standard unit.",
      ],
      image: cardImage("commercial-openers", "A commercial door operator mounted beside a door"),
      links: [links.commercialQuote, links.commercialService],
    },
    {
      kind: "gallery",
      id: "operators",
      heading: "Our Operators",
      imageSize: { width: 480, height: 360 },
      items: operators.map((o) => ({
        name: o.name,
        image: `/images/operators/${o.image}.svg`,
        text: o.summary,
        link: { label: `View ${o.name}`, to: o.path },
      })),
      tint: true,
    },
    { kind: "quote-form", type: "commercial" },
  ],
};

function operatorPage(o: Operator): ContentPage {
  const rows = [
    ...(o.dutyCycle ? [{ label: "Duty cycle", value: o.dutyCycle }] : []),
    ...(o.cyclesPerDay ? [{ label: "Daily use", value: o.cyclesPerDay }] : []),
    ...(o.extras ?? []),
    { label: "Door spring life", value: SPRING_LIFE },
    { label: "Safety", value: "Photo eyes and monitored safety edge included" },
  ];
  return {
    path: o.path,
    title: `${o.name} | Commercial Openers`,
    description: o.summary.length <= 130 ? `${o.summary} Installed and serviced by Dover.` : o.summary,
    banner: {
      image: banner,
      title: o.name,
      subtitle: o.tagline,
      crumbs: crumbs({ label: "Commercial Openers", to: "/commercial-openers" }, o.name),
    },
    sections: [
      {
        kind: "intro",
        heading: `About the ${o.name}`,
        paragraphs: [o.summary, ...o.paragraphs],
        image: {
          src: `/images/operators/${o.image}.svg`,
          alt: `${o.name} installed on a commercial door`,
          width: 480,
          height: 360,
        },
        links: [links.requestQuote, links.requestService],
      },
      {
        kind: "specs",
        heading: "At a Glance",
        intro:
          "Standard door springs are rated for about 10,000 cycles; on busy doors we recommend high-cycle springs so the operator and the door last equally long.",
        rows,
        tint: true,
      },
      { kind: "checklist", heading: "A Good Fit For", items: o.bestFor },
      {
        kind: "cta",
        heading: `Is the ${o.name} Right for Your Door?`,
        text: "Tell us about the door and how often it opens, and we will recommend the right operator with a firm price.",
        links: [
          links.requestQuote,
          links.requestService,
          { label: "Compare All Operators", to: "/commercial-openers", variant: "ghost" },
        ],
      },
    ],
  };
}

export const commercialPages: ContentPage[] = [
  sectional,
  rolling,
  docks,
  hollowMetal,
  partitions,
  mobileApp,
  openersList,
  ...operators.map(operatorPage),
];
