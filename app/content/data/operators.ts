/**
 * Commercial door operators (SPEC §2 "Commercial openers list" and §9
 * "Operators"). The paths are the spec's slugs, including the misspelled
 * gearhead hoist one.
 */
export type Operator = {
  /** Image file name under /images/operators. */
  image: string;
  path: string;
  name: string;
  tagline: string;
  summary: string;
  paragraphs: string[];
  bestFor: string[];
  /** Figures of SPEC §9 where they apply. */
  dutyCycle?: string;
  cyclesPerDay?: string;
  extras?: { label: string; value: string }[];
};

/** SPEC §9: duty cycle 25 per hour; spring life about 10,000 cycles. */
export const DUTY_CYCLE = "25 cycles per hour";
export const STANDARD_CYCLES_PER_DAY = "Up to 90 cycles per day";
export const GEARHEAD_CYCLES_PER_DAY = "More than 90 cycles per day";
export const SPRING_LIFE = "About 10,000 cycles on standard torsion springs";

export const operators: Operator[] = [
  {
    image: "dock-door-operator",
    path: "/commercial-openers-dock-door-operator",
    name: "Dock Door Operator",
    tagline: "Built for the loading dock, where every minute counts",
    summary:
      "A fast, dock-rated operator that opens 50% faster than a standard unit and comes with six months of facility subscription included.",
    paragraphs: [
      "A dock door opens and closes dozens of times a shift, often with a forklift waiting in front of it. Our dock door operator is designed for exactly that rhythm: it opens 50% faster than a standard commercial operator, so trailers are loaded sooner and less heated air escapes while the door stands open.",
      "Every dock operator we install includes six months of facility subscription: remote monitoring of door status, open-too-long alerts and a cycle count that tells our service team when maintenance is due, before a breakdown stops your shipping schedule.",
    ],
    bestFor: [
      "Distribution centres and warehouses",
      "Grocery and food-service receiving docks",
      "Manufacturing shipping bays",
      "Any dock with frequent trailer changes",
    ],
    extras: [
      { label: "Opening speed", value: "Opens 50% faster than a standard operator" },
      { label: "Facility subscription", value: "Six months included" },
    ],
  },
  {
    image: "gearhead-hoist",
    path: "/commercial-openers-heearhead-hoist-operator",
    name: "Gearhead Hoist Operator",
    tagline: "Heavy doors, heavy traffic, no complaints",
    summary: "An oil-bath gearhead hoist for large sectional and rolling doors that run more than 90 cycles a day.",
    paragraphs: [
      "When a door is big, heavy and in constant use, a gearhead hoist is the operator we reach for. Its enclosed gear reducer runs in oil, so it stays cool and quiet under loads that would wear out a belt-driven unit.",
      "The hoist mounts on the wall beside the door and drives the door shaft through a chain, leaving the ceiling clear for cranes, lights and sprinkler lines. A manual chain hoist lets your staff open the door during a power cut.",
    ],
    bestFor: [
      "Large rolling steel doors",
      "High-lift and vertical-lift sectional doors",
      "Fire stations and municipal garages",
      "Plants running several shifts",
    ],
    dutyCycle: DUTY_CYCLE,
    cyclesPerDay: GEARHEAD_CYCLES_PER_DAY,
  },
  {
    image: "gearhead-trolley",
    path: "/commercial-openers-gearhead-trolley",
    name: "Gearhead Trolley Operator",
    tagline: "Trolley simplicity with industrial stamina",
    summary:
      "A ceiling-mounted trolley operator with an oil-bath gearhead, for standard-lift sectional doors that cycle more than 90 times a day.",
    paragraphs: [
      "A trolley operator pulls the door open along a rail on the ceiling, the way most people picture a garage door opener. The gearhead version replaces light-duty drive parts with an industrial gear reducer, so it keeps that familiar layout on doors that never get a rest.",
      "It is our usual choice for busy service bays and car washes with standard-lift track, where there is room on the ceiling and the door opens for every vehicle.",
    ],
    bestFor: [
      "Automotive service bays",
      "Car washes and fleet garages",
      "Standard-lift sectional doors",
      "High-traffic shop entrances",
    ],
    dutyCycle: DUTY_CYCLE,
    cyclesPerDay: GEARHEAD_CYCLES_PER_DAY,
  },
  {
    image: "hoist-operator",
    path: "/commercial-openers-hoist-operator",
    name: "Hoist Operator",
    tagline: "Wall-mounted and ready for a power cut",
    summary:
      "A versatile wall-mounted hoist for sectional and rolling doors in moderate use, with a manual chain for outages.",
    paragraphs: [
      "The hoist operator sits on the wall beside the door and turns the door shaft through a drive chain. Because it takes no ceiling space, it suits rolling steel doors and sectional doors with high-lift or vertical track.",
      "A built-in chain hoist lets anyone open the door by hand when the power is out, and an electric interlock stops the motor while the chain is in use.",
    ],
    bestFor: [
      "Rolling steel service doors",
      "Sectional doors with high-lift track",
      "Warehouses and storage buildings",
      "Doors used through the working day",
    ],
    dutyCycle: DUTY_CYCLE,
    cyclesPerDay: STANDARD_CYCLES_PER_DAY,
  },
  {
    image: "jackshaft",
    path: "/commercial-openers-jackshaft",
    name: "Jackshaft Operator",
    tagline: "Clears the ceiling, drives the shaft",
    summary:
      "A compact side-mounted operator that drives the door shaft directly: ideal where the ceiling is needed for other things.",
    paragraphs: [
      "A jackshaft operator mounts on the wall at the end of the torsion shaft and turns it through a short chain or direct coupling. With no rail on the ceiling it leaves room for vehicle lifts, overhead storage and tall vehicles.",
      "It works well with the standard-lift, high-lift and vertical-lift sectional doors we install, and it is one of the quietest operators in our line.",
    ],
    bestFor: [
      "Shops with vehicle lifts",
      "Sectional doors with high-lift track",
      "Showrooms that want a clean ceiling",
      "Moderate daily use",
    ],
    dutyCycle: DUTY_CYCLE,
    cyclesPerDay: STANDARD_CYCLES_PER_DAY,
  },
  {
    image: "trolley-operator",
    path: "/commercial-openers-trolley-operator",
    name: "Trolley Operator",
    tagline: "The dependable all-rounder",
    summary:
      "A ceiling-mounted trolley operator for standard-lift sectional doors in light to moderate commercial use.",
    paragraphs: [
      "The trolley operator is the straightforward, cost-effective choice for most small-business doors. It mounts on the ceiling, pulls the door along a rail and needs very little adjustment once set up.",
      "We fit it with photo eyes and a monitored safety edge as standard, and add keypads, remote controls or app control to suit the way your staff come and go.",
    ],
    bestFor: [
      "Small businesses and contractors' shops",
      "Standard-lift sectional doors",
      "Storage units and pole barns",
      "Light to moderate daily use",
    ],
    dutyCycle: DUTY_CYCLE,
    cyclesPerDay: STANDARD_CYCLES_PER_DAY,
  },
];
