import { faqItems, repairFaqs } from "../data/faqs";
import { windowCatalog, windowTypes } from "../data/windows";
import type { ContentPage } from "../page-types";
import { cardImage, crumbs, links } from "./helpers";

const banner = "residential.svg";

const garageDoors: ContentPage = {
  path: "/residential-garage-doors",
  title: "Residential Garage Doors",
  description:
    "Insulated steel, carriage-house and modern garage doors for Michigan homes, measured and installed by Dover's own crews since 1936.",
  banner: {
    image: banner,
    title: "Residential Garage Doors",
    subtitle: "The biggest moving part of your home, chosen with care and installed by our own crews.",
    crumbs: crumbs("Garage Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "A Door That Fits Your Home and Our Winters",
      paragraphs: [
        "A garage door is often the largest feature on the front of a house, and in Michigan it also has to keep out January wind and August heat. We have been fitting garage doors since our founder opened his first workshop in 1936, and we still measure every opening ourselves before we recommend a door.",
        "Choose from insulated steel in dozens of colours, wood-look finishes that never need staining, and glass-and-aluminium doors for modern homes. Try them on a photo of your own house with the online design tool, then bring your favourite to a showroom to see it full size.",
        "Already have a door you love that needs attention? Our [repair technicians](/residential-garage-door-repairs) fix every brand, and our [installation page](/residential-garage-door-installation) explains what happens on the day your new door goes in.",
      ],
      image: cardImage("garage-doors", "A two-car garage door with a row of windows on a brick home"),
      links: [
        links.residentialQuote,
        links.designTool,
        { label: "Garage Door Repairs", to: "/residential-garage-door-repairs", variant: "ghost" },
        { label: "Garage Door Installation", to: "/residential-garage-door-installation", variant: "ghost" },
      ],
    },
    {
      kind: "gallery",
      id: "style",
      heading: "Choose Your Style",
      intro: "Three families of design, each offered in many colours, window patterns and hardware finishes.",
      imageSize: { width: 640, height: 400 },
      items: [
        {
          name: "Traditional",
          image: "/images/styles/traditional.svg",
          text: "Raised or recessed panels in long or short rows. Traditional doors suit colonials, ranches and most homes built in the last seventy years, and they are the most budget-friendly of the three.",
        },
        {
          name: "Country",
          image: "/images/styles/country.svg",
          text: "Carriage-house doors with cross bucks, arched windows and handles that echo the swinging barn doors of the past, while opening overhead at the touch of a button.",
        },
        {
          name: "Modern",
          image: "/images/styles/modern.svg",
          text: "Flush steel, clean horizontal grooves or full-view aluminium frames with frosted or clear glass. A bold statement for contemporary and mid-century homes.",
        },
      ],
      links: [links.designTool],
      tint: true,
    },
    {
      kind: "features",
      heading: "What Goes Into a Dover Garage Door",
      items: [
        {
          icon: "leaf",
          title: "Real insulation",
          text: "Polyurethane-insulated doors up to R-18 keep an attached garage warmer in winter and the room above it more comfortable.",
        },
        {
          icon: "shield",
          title: "Built to last",
          text: "Galvanised steel, baked-on paint and sealed bottom weatherstrip that stands up to road salt and slush.",
        },
        {
          icon: "home",
          title: "Curb appeal",
          text: "Decorative windows, handles and hinges let you match your front door, trim and lighting.",
        },
        {
          icon: "tools",
          title: "Our own installers",
          text: "Trained, insured employees, never subcontractors, who haul away the old door and leave the garage swept.",
        },
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const openers: ContentPage = {
  path: "/residential-garage-door-openers",
  title: "Garage Door Openers & Accessories",
  description:
    "Quiet belt-drive, chain-drive and wall-mount garage door openers with battery backup and smartphone control, installed and serviced by Dover.",
  banner: {
    image: banner,
    title: "Garage Door Openers & Accessories",
    subtitle: "Quiet, safe and smart: openers that work every time you press the button.",
    crumbs: crumbs("Garage Door Openers"),
  },
  sections: [
    {
      kind: "intro",
      heading: "The Right Opener for Your Door",
      paragraphs: [
        "An opener should be the part of your garage you never think about. We match the drive, the horsepower and the accessories to the size and weight of your door, then set the force and travel limits by hand so it runs smoothly and reverses the moment anything is in the way.",
        "Replacing an opener that is ten or more years old brings battery backup, rolling security codes and the option to open, close and check your door from your phone.",
      ],
      image: cardImage("openers", "A belt-drive garage door opener mounted on a garage ceiling"),
      links: [links.residentialQuote, links.requestService],
    },
    {
      kind: "features",
      heading: "Drive Types",
      intro: "Every opener we sell has photo-eye sensors and an automatic reverse.",
      items: [
        {
          icon: "leaf",
          title: "Belt drive",
          text: "A steel-reinforced rubber belt makes the quietest ride: the choice for garages under bedrooms.",
        },
        {
          icon: "gear",
          title: "Chain drive",
          text: "Proven, strong and economical for detached garages and heavier wood doors.",
        },
        {
          icon: "home",
          title: "Wall mount",
          text: "Mounts beside the door on the torsion shaft, leaving the ceiling free for storage or a car lift.",
        },
        {
          icon: "bolt",
          title: "Battery backup",
          text: "Keeps your door working for a day or more of openings during a power cut.",
        },
      ],
      tint: true,
    },
    {
      kind: "checklist",
      heading: "Accessories We Install",
      items: [
        "Smartphone control and delivery-to-garage compatibility",
        "Wireless keypads with changeable codes",
        "Remote controls and car-visor transmitters",
        "Motion-sensing wall controls with built-in lights",
        "LED opener lighting",
        "Automatic deadbolt locks for wall-mount openers",
        "Camera-equipped openers",
        "Replacement photo-eye sensors",
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const entryDoors: ContentPage = {
  path: "/residential-entry-doors",
  title: "Entry Doors",
  description:
    "Fibreglass and steel front doors with sidelites, transoms and decorative glass, designed online and installed by Dover Doors & Windows.",
  banner: {
    image: banner,
    title: "Entry Doors",
    subtitle: "A warmer welcome, a tighter seal and a stronger lock at the front of your home.",
    crumbs: crumbs("Entry Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "First Impressions That Last",
      paragraphs: [
        "Your front door is the handshake of your home. We install fibreglass and steel entry systems that look like painted or stained wood, but will not warp, rot or swell when the seasons change.",
        "Start with the online design tool: choose a door, add sidelites or a transom, pick glass and colour, and see it on a photo of your own house. Then one of our designers will visit to measure and confirm every detail.",
      ],
      image: cardImage("entry-doors", "A green front door with sidelites on a house"),
      links: [links.residentialQuote, links.designTool],
    },
    {
      kind: "features",
      heading: "Built Around the Way You Live",
      items: [
        {
          icon: "home",
          title: "Fibreglass and steel",
          text: "Wood-grain fibreglass you can stain, or smooth steel that takes any paint colour.",
        },
        {
          icon: "star",
          title: "Decorative glass",
          text: "Privacy glass, leaded designs and internal blinds that bring light into the hall.",
        },
        {
          icon: "lock",
          title: "Security",
          text: "Multi-point locks and reinforced frames that hold firm against a forced entry.",
        },
        {
          icon: "leaf",
          title: "Energy efficiency",
          text: "Foam-filled cores and compression weatherstrip that stop the draft at the door.",
        },
      ],
      tint: true,
    },
    {
      kind: "steps",
      heading: "From Idea to Installed",
      steps: [
        { title: "Design", text: "Try styles and colours online or in a showroom." },
        { title: "Measure", text: "We measure the opening and check the sill and framing." },
        { title: "Build", text: "Your door is made to order, pre-hung in its frame." },
        { title: "Install", text: "Usually in one day, finished with new trim and a tested lock." },
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const patioDoors: ContentPage = {
  path: "/residential-patio-doors",
  title: "Patio Doors",
  description:
    "Sliding and hinged patio doors with Low-E glass and smooth hardware, starting at $2,999 installed by Dover Doors & Windows.",
  banner: {
    image: banner,
    title: "Patio Doors",
    subtitle: "More light, an easier glide and a view of the garden, starting at $2,999 installed.",
    crumbs: crumbs("Patio Doors"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Open Up to the Outdoors",
      highlight: "Starting at $2,999 installed",
      paragraphs: [
        "A patio door that sticks, leaks cold air or fogs between the panes makes a room feel smaller. Our replacement patio doors glide on stainless rollers, seal tightly in winter and fill the room with daylight all year.",
        "The price includes the door, removal and disposal of your old unit, installation by our own crew, and new interior trim. Larger sizes, French doors and internal blinds are priced on a free quote.",
      ],
      image: cardImage("patio-doors", "A sliding patio door opening onto a deck"),
      links: [links.residentialQuote, links.call],
    },
    {
      kind: "features",
      heading: "Sliding or Hinged",
      items: [
        {
          icon: "home",
          title: "Sliding doors",
          text: "Two or three panels on a smooth track: no swing space needed, perfect for decks and patios.",
        },
        {
          icon: "star",
          title: "French doors",
          text: "Hinged doors that open wide for entertaining and give a classic, finished look.",
        },
        {
          icon: "leaf",
          title: "Low-E insulated glass",
          text: "Double or triple panes with argon gas keep the heat where you want it.",
        },
        {
          icon: "lock",
          title: "Internal blinds",
          text: "Blinds sealed between the panes never gather dust or tangle.",
        },
      ],
      tint: true,
    },
    {
      kind: "checklist",
      heading: "Included in the Installed Price",
      items: [
        "In-home measurement and consultation",
        "Vinyl sliding patio door in a standard size",
        "Removal and disposal of the old door",
        "Installation by our own crew",
        "New interior casing",
        "Clean-up and a walk-through of how to care for your door",
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const gutterColours = [
  { name: "White", hex: "#f8f8f5" },
  { name: "Almond", hex: "#e9dcc3" },
  { name: "Linen", hex: "#efe7d6" },
  { name: "Sandstone", hex: "#d8c5a0" },
  { name: "Wicker", hex: "#c9b58d" },
  { name: "Clay", hex: "#b79f7d" },
  { name: "Pebblestone", hex: "#b6ad9c" },
  { name: "Light Grey", hex: "#c4c7c6" },
  { name: "Dove Grey", hex: "#9fa4a3" },
  { name: "Charcoal", hex: "#4a4d4f" },
  { name: "Black", hex: "#1f1f1f" },
  { name: "Musket Brown", hex: "#5a4636" },
  { name: "Royal Brown", hex: "#4b3428" },
  { name: "Terra Bronze", hex: "#6b4f3a" },
  { name: "Copper Penny", hex: "#a5623a" },
  { name: "Barn Red", hex: "#7e2b25" },
  { name: "Colonial Red", hex: "#8d3a30" },
  { name: "Hunter Green", hex: "#2f4f3a" },
  { name: "Forest Green", hex: "#1d5c3a" },
  { name: "Ivy", hex: "#55694d" },
  { name: "Slate Blue", hex: "#52667a" },
  { name: "Harbour Blue", hex: "#2f4a66" },
];

const gutters: ContentPage = {
  path: "/residential-seamless-gutters",
  title: "Seamless Gutters",
  description:
    "Seamless aluminium gutters formed on site: 5 inch for homes, 6 inch for commercial buildings, in over 20 colours, from Dover Doors & Windows.",
  banner: {
    image: banner,
    title: "Seamless Gutters",
    subtitle: "Formed on site to the exact length of your roofline, with no seams to leak.",
    crumbs: crumbs("Seamless Gutters"),
  },
  sections: [
    {
      kind: "intro",
      heading: "One Piece, Corner to Corner",
      paragraphs: [
        "Sectional gutters leak where the pieces join. Ours are rolled from a coil of heavy aluminium in our truck, right in your driveway, so each run is a single piece from corner to corner. The only joints are at the corners and the downspouts, and those are sealed and riveted.",
        "Properly sized gutters carry spring rain and melting snow away from your foundation, protect your landscaping and keep water out of the basement.",
      ],
      image: cardImage("seamless-gutters", "A seamless gutter and downspout along a roofline"),
      links: [links.residentialQuote],
    },
    {
      kind: "features",
      heading: "Two Sizes for Every Roof",
      items: [
        {
          icon: "home",
          title: "5 inch residential",
          text: "The standard for most homes: enough capacity for a typical roof, neat in proportion to the fascia.",
        },
        {
          icon: "truck",
          title: "6 inch commercial",
          text: "A larger profile that carries about 40% more water, for steep or large roofs, shops and commercial buildings.",
        },
        {
          icon: "drop",
          title: "Oversized downspouts",
          text: "3 × 4 inch downspouts move water quickly and clog less often than standard ones.",
        },
        {
          icon: "shield",
          title: "Gutter guards",
          text: "Optional covers keep out leaves and pine needles so you can put the ladder away.",
        },
      ],
      tint: true,
    },
    {
      kind: "swatches",
      heading: "Over 20 Colours",
      intro: "Baked-enamel finishes that match or contrast with your trim, siding and roof.",
      colours: gutterColours,
      note: "Colours on screen are approximate: ask to see a sample piece in a showroom.",
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const siding: ContentPage = {
  path: "/residential-vinyl-siding",
  title: "Vinyl Siding",
  description:
    "Low-maintenance vinyl siding in lap, shake and board-and-batten profiles, with insulated backing options, installed by Dover's crews.",
  banner: {
    image: banner,
    title: "Vinyl Siding",
    subtitle: "A fresh face for your home that never needs painting.",
    crumbs: crumbs("Vinyl Siding"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Beauty Without the Upkeep",
      paragraphs: [
        "Scraping and repainting wood siding every few years is a chore nobody misses. Today's vinyl siding has crisp shadow lines, realistic wood grain and colours engineered to resist fading, and a rinse with the garden hose is all the maintenance it needs.",
        "We remove old siding where needed, repair any soft sheathing we find, wrap the house and install new siding, trim, soffit and fascia, so the whole exterior is finished at the same time.",
      ],
      image: cardImage("vinyl-siding", "A two-storey home with new lap siding"),
      links: [links.residentialQuote],
    },
    {
      kind: "features",
      heading: "Profiles and Options",
      items: [
        {
          icon: "home",
          title: "Lap and Dutch lap",
          text: "Traditional horizontal lines that suit almost every style of Michigan home.",
        },
        { icon: "star", title: "Shakes and scallops", text: "Cedar-look accents for gables and dormers." },
        { icon: "check", title: "Board and batten", text: "Vertical lines for a farmhouse look or a modern contrast." },
        {
          icon: "leaf",
          title: "Insulated siding",
          text: "A contoured foam backer adds rigidity and helps cut energy bills.",
        },
      ],
      tint: true,
    },
    {
      kind: "steps",
      heading: "How a Siding Project Runs",
      steps: [
        { title: "Consultation", text: "We look at your walls, talk colours and profiles and leave you samples." },
        { title: "Preparation", text: "Old siding comes off where needed; damaged sheathing is replaced." },
        { title: "Wrap and install", text: "House wrap, flashing, then siding, trim, soffit and fascia." },
        { title: "Final walk-through", text: "A magnetic sweep for nails and an inspection with you." },
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const windows: ContentPage = {
  path: "/residential-windows",
  title: "Replacement Windows",
  description:
    "Energy-efficient replacement windows in eight styles: awning, bay and bow, casement, double hung, garden, glider, hopper and picture. Download our catalog.",
  banner: {
    image: banner,
    title: "Replacement Windows",
    subtitle: "Eight window styles, measured, built to size and fitted by our own crews.",
    crumbs: crumbs("Windows"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Warmer Rooms, Quieter Nights",
      paragraphs: [
        "Old windows let heat out, drafts in and the sound of the street through. Our vinyl replacement windows are welded at every corner, filled with insulating glass and custom built to the exact size of each opening, so they fit without gaps or oversized trim.",
        "Try styles and colours with the window designer, or download our catalog to compare every style, glass package and option at your kitchen table.",
      ],
      image: cardImage("windows", "A double hung window with a green frame"),
      links: [
        links.residentialQuote,
        links.windowDesigner,
        { label: windowCatalog.label, to: windowCatalog.to, download: windowCatalog.download, variant: "ghost" },
      ],
    },
    {
      kind: "gallery",
      id: "window-types",
      heading: "Window Styles",
      intro: "Every style comes in white, almond and a range of exterior colours.",
      imageSize: { width: 480, height: 360 },
      items: windowTypes,
      tint: true,
    },
    {
      kind: "features",
      heading: "What Makes a Window Efficient",
      items: [
        {
          icon: "leaf",
          title: "Low-E glass",
          text: "A microscopic coating reflects heat back into the room in winter and out in summer.",
        },
        { icon: "drop", title: "Argon gas", text: "A dense, harmless gas between the panes slows heat loss." },
        {
          icon: "shield",
          title: "Warm-edge spacers",
          text: "Keep the glass edge warmer, reducing condensation on cold mornings.",
        },
        {
          icon: "check",
          title: "Lifetime warranty",
          text: "Limited lifetime coverage on frames, sashes and insulating glass.",
        },
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const inspectionPoints = [
  "Torsion or extension springs",
  "Spring anchor brackets",
  "Lift cables and cable drums",
  "Bottom brackets",
  "Rollers",
  "Hinges",
  "Track alignment",
  "Track fasteners",
  "Door balance",
  "Bearing plates",
  "Centre bearing",
  "Torsion shaft",
  "Section panels",
  "Struts",
  "Bottom weatherstrip",
  "Perimeter weather seal",
  "Lock and handle",
  "Opener mounting",
  "Opener drive belt or chain",
  "Opener force settings",
  "Travel limits",
  "Photo-eye sensors",
  "Automatic reverse test",
  "Wall control and remotes",
  "Lubrication of moving parts",
];

const repairs: ContentPage = {
  path: "/residential-garage-door-repairs",
  title: "Garage Door Repairs",
  description:
    "Same or next day garage door repair with a 25-point inspection, 24/7 emergency service and technicians who fix every brand. Dover Doors & Windows.",
  banner: {
    image: "service.svg",
    title: "Garage Door Repairs",
    subtitle: "Same or next day service, a 25-point inspection and a 24/7 emergency line.",
    crumbs: crumbs({ label: "Garage Doors", to: "/residential-garage-doors" }, "Repairs"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Back in Working Order, Fast",
      paragraphs: [
        "A door that will not open traps your car; a door that will not close leaves your home exposed. Call before noon and we can usually have a technician in your driveway the same day, or first thing the next, with the springs, cables, rollers and sensors that fix most doors on board.",
        "Every repair visit includes our 25-point inspection, so you know the condition of the whole system and not only the part that failed. Our technicians quote before they start, and you will never be pressured into a new door.",
        "Door stuck open at night or off its track? Our emergency line is answered 24 hours a day, 7 days a week.",
      ],
      image: cardImage("schedule-service", "A technician repairing a garage door spring"),
      links: [links.requestService, links.emergency],
    },
    {
      kind: "features",
      heading: "Why Call Dover",
      items: [
        {
          icon: "check",
          title: "25-point inspection",
          text: "We check and adjust the whole door and opener on every visit.",
        },
        {
          icon: "clock",
          title: "Same or next day service",
          text: "Four locations and stocked trucks mean short waits across Mid-Michigan.",
        },
        {
          icon: "phone",
          title: "24/7 emergency service",
          text: "A real person answers, day or night, weekends and holidays.",
        },
        {
          icon: "tools",
          title: "All makes and models",
          text: "We repair doors and openers from every major manufacturer.",
        },
      ],
      tint: true,
    },
    { kind: "checklist", id: "inspection", heading: "Our 25-Point Inspection", items: inspectionPoints },
    {
      kind: "accordion",
      id: "repair-faq",
      heading: "Repair Questions",
      group: "repair-faq",
      items: faqItems(repairFaqs),
      tint: true,
    },
    { kind: "quote-form", type: "residential" },
  ],
};

const installation: ContentPage = {
  path: "/residential-garage-door-installation",
  title: "Garage Door Installation",
  description:
    "Professional garage door installation by Dover's own crews: measurement, removal of the old door, installation, opener set-up and clean-up.",
  banner: {
    image: banner,
    title: "Garage Door Installation",
    subtitle: "One crew, one day, and a door that is balanced, sealed and safe.",
    crumbs: crumbs({ label: "Garage Doors", to: "/residential-garage-doors" }, "Installation"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Installed Right the First Time",
      paragraphs: [
        "A garage door is a heavy, spring-loaded machine; how it is installed matters as much as which door you choose. Our installers are employees trained on the doors we sell, and most replacements are finished in a single day.",
        "We set the spring tension to the weight of your new door, level the tracks, seal the sides and bottom, and connect or replace the opener, then show you the manual release and safety features before we leave.",
      ],
      image: cardImage("garage-doors", "A new garage door being installed"),
      links: [
        links.residentialQuote,
        { label: "Browse Garage Doors", to: "/residential-garage-doors", variant: "outline" },
      ],
    },
    {
      kind: "steps",
      heading: "Installation Day, Step by Step",
      steps: [
        { icon: "home", title: "Protect", text: "We cover floors and move vehicles and belongings clear of the work." },
        {
          icon: "tools",
          title: "Remove",
          text: "The old door and springs are safely released, taken down and hauled away.",
        },
        {
          icon: "gear",
          title: "Install",
          text: "New tracks, sections, springs and weatherstrip go in, level and plumb.",
        },
        {
          icon: "check",
          title: "Test and hand over",
          text: "We balance the door, test the safety reverse and walk you through it.",
        },
      ],
      tint: true,
    },
    {
      kind: "features",
      heading: "Included With Every Installation",
      items: [
        { icon: "truck", title: "Haul-away", text: "Removal and recycling of your old door at no extra charge." },
        {
          icon: "shield",
          title: "Workmanship warranty",
          text: "Our labour is covered, in addition to the manufacturer's warranty.",
        },
        {
          icon: "leaf",
          title: "New weather seal",
          text: "Fresh perimeter and bottom seals to keep out drafts and critters.",
        },
        { icon: "star", title: "Follow-up", text: "A free adjustment visit in the first year if anything needs it." },
      ],
    },
    { kind: "quote-form", type: "residential" },
  ],
};

export const residentialPages: ContentPage[] = [
  garageDoors,
  openers,
  entryDoors,
  patioDoors,
  gutters,
  siding,
  windows,
  repairs,
  installation,
];
