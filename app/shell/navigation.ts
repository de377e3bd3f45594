/** Navigation as data (SPEC §2 "Top navigation", "Top bar"). Labels and links exactly as specified. */
/** `personal`: one visitor's page (the cart, the checkout): in the footer, never in /sitemap.xml. */
export type NavLink = { label: string; to: string; external?: boolean; personal?: boolean };
export type NavGroup = { label: string; mobileLabel: string; links: NavLink[] };

export const residentialMenu: NavGroup = {
  label: "Residential",
  mobileLabel: "Residential Products",
  links: [
    { label: "Schedule Service", to: "/request-service" },
    { label: "Request Quote", to: "/request-quote" },
    { label: "Garage Doors", to: "/residential-garage-doors" },
    { label: "Garage Door Openers", to: "/residential-garage-door-openers" },
    { label: "Entry Doors", to: "/residential-entry-doors" },
    { label: "Patio Doors", to: "/residential-patio-doors" },
    { label: "Windows", to: "/residential-windows" },
    { label: "Seamless Gutters", to: "/residential-seamless-gutters" },
    { label: "Vinyl Siding", to: "/residential-vinyl-siding" },
  ],
};

export const commercialMenu: NavGroup = {
  label: "Commercial",
  mobileLabel: "Commercial Products",
  links: [
    { label: "Sectional Garage Doors", to: "/commercial-sectional-garage-doors" },
    { label: "Rolling Steel Doors", to: "/commercial-rolling-steel-doors" },
    { label: "Commercial Openers", to: "/commercial-openers" },
    { label: "Loading Docks", to: "/commercial-loading-docks" },
    { label: "Hollow Metal Doors", to: "/commercial-hollow-metal-doors" },
    { label: "Bathroom Partitions", to: "/commercial-bathroom-partitions" },
    // DECISIONS 4: the commercial entry goes straight to the commercial form.
    { label: "Commercial Schedule Service", to: "/request-service?type=commercial" },
    { label: "Commercial Mobile App", to: "/commercial-mobile-app" },
  ],
};

export const connectMenu: NavGroup = {
  label: "Connect",
  mobileLabel: "Connect",
  links: [
    { label: "Contact Us", to: "/contact" },
    { label: "About Us", to: "/about-us" },
    { label: "Service Areas", to: "/service-area" },
    { label: "Careers", to: "/careers" },
    { label: "Leave A Review", to: "/review" },
  ],
};

export const menus: NavGroup[] = [residentialMenu, commercialMenu, connectMenu];

/** Top bar of action buttons. The first four also show on mobile; the rest are hidden there. */
export function topBarLinks(shopUrl?: string): (NavLink & { mobile: boolean })[] {
  return [
    { label: "Schedule Service", to: "/request-service", mobile: true },
    { label: "Get Quote", to: "/request-quote", mobile: true },
    { label: "Pay Invoice", to: "/pay-invoice", mobile: true },
    // DECISIONS 5: the internal shop, same tab, unless an external shop is configured.
    shopUrl
      ? { label: "Shop", to: shopUrl, external: true, mobile: true }
      : { label: "Shop", to: "/shop", mobile: true },
    { label: "Careers", to: "/careers", mobile: false },
    { label: "Service Areas", to: "/service-area", mobile: false },
  ];
}

/**
 * Every public page, grouped for the footer site map (so every page is
 * reachable with JavaScript off) and for /sitemap.xml.
 */
export const siteMap: { heading: string; links: NavLink[] }[] = [
  {
    heading: "Residential",
    links: [
      { label: "Garage Doors", to: "/residential-garage-doors" },
      { label: "Garage Door Openers", to: "/residential-garage-door-openers" },
      { label: "Garage Door Repairs", to: "/residential-garage-door-repairs" },
      { label: "Garage Door Installation", to: "/residential-garage-door-installation" },
      { label: "Entry Doors", to: "/residential-entry-doors" },
      { label: "Patio Doors", to: "/residential-patio-doors" },
      { label: "Windows", to: "/residential-windows" },
      { label: "Seamless Gutters", to: "/residential-seamless-gutters" },
      { label: "Vinyl Siding", to: "/residential-vinyl-siding" },
    ],
  },
  {
    heading: "Commercial",
    links: [
      { label: "Sectional Garage Doors", to: "/commercial-sectional-garage-doors" },
      { label: "Rolling Steel Doors", to: "/commercial-rolling-steel-doors" },
      { label: "Commercial Openers", to: "/commercial-openers" },
      { label: "Dock Door Operator", to: "/commercial-openers-dock-door-operator" },
      { label: "Gearhead Hoist Operator", to: "/commercial-openers-heearhead-hoist-operator" },
      { label: "Gearhead Trolley Operator", to: "/commercial-openers-gearhead-trolley" },
      { label: "Hoist Operator", to: "/commercial-openers-hoist-operator" },
      { label: "Jackshaft Operator", to: "/commercial-openers-jackshaft" },
      { label: "Trolley Operator", to: "/commercial-openers-trolley-operator" },
      { label: "Loading Docks", to: "/commercial-loading-docks" },
      { label: "Hollow Metal Doors", to: "/commercial-hollow-metal-doors" },
      { label: "Bathroom Partitions", to: "/commercial-bathroom-partitions" },
      { label: "Commercial Service", to: "/commercial-schedule-service" },
      { label: "Commercial Mobile App", to: "/commercial-mobile-app" },
    ],
  },
  {
    heading: "Services",
    links: [
      { label: "Request a Quote", to: "/request-quote" },
      { label: "Request Service", to: "/request-service" },
      { label: "Pay Invoice", to: "/pay-invoice" },
      { label: "Discount Sign-up", to: "/discount-signup-2025" },
      { label: "Shop", to: "/shop" },
      { label: "Your Cart", to: "/my-cart", personal: true },
      { label: "Checkout", to: "/checkout", personal: true },
    ],
  },
  {
    heading: "Company",
    links: [
      { label: "Home", to: "/" },
      { label: "About Us", to: "/about-us" },
      { label: "Contact Us", to: "/contact" },
      { label: "Service Areas", to: "/service-area" },
      { label: "Careers", to: "/careers" },
      { label: "Employment Application", to: "/employment" },
      { label: "Reviews", to: "/review" },
      { label: "Refer a Friend", to: "/refer-a-friend-referral-program-garage-doors" },
      { label: "Privacy Notice", to: "/privacy" },
      { label: "Terms of Sale and Service", to: "/terms" },
    ],
  },
];
