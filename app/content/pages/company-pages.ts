import { company } from "~/lib/company";
import { referralProgram as rp } from "../data/location-reviews";
import { openingItems } from "../data/openings";
import type { ContentPage } from "../page-types";
import { crumbs, links } from "./helpers";

const about: ContentPage = {
  path: "/about-us",
  title: "About Us",
  description:
    "Dover Doors & Windows has been a Michigan family company since 3 July 1936. Our history, our mission and vision, and the people behind every installation.",
  jsonLd: "business",
  banner: {
    image: "about.svg",
    title: "About Dover Doors & Windows",
    subtitle: "A Michigan family company since 3 July 1936.",
    crumbs: crumbs("About Us"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Four Generations of Doing It Right",
      paragraphs: [
        "On 3 July 1936, Walter Dover hung a hand-painted sign over a rented carpentry shop on Flint's west side and started building wooden doors for the garages that were appearing behind every new house in town. He delivered them on a borrowed truck and installed them himself, and he gave every customer the same promise: if it sticks, squeaks or leaks, call me.",
        "Nearly ninety years later his great-grandchildren run the company from four Michigan locations. The products have changed beyond recognition (insulated steel, smart openers, triple-pane glass), but the promise has not. We still install with our own crews, we still pick up the phone at night, and we still come back when something isn't right.",
      ],
      image: {
        src: "/images/content/about-1936.svg",
        alt: "Illustration of the original Dover workshop in 1936",
        width: 800,
        height: 600,
      },
      links: [links.requestQuote, links.contact],
    },
    {
      kind: "timeline",
      heading: "Our History",
      tint: true,
      items: [
        {
          year: "1936",
          title: "A workshop in Flint",
          text: "Walter Dover opens his door shop on 3 July, building wooden swing and overhead doors by hand.",
        },
        {
          year: "1952",
          title: "The second generation",
          text: "Walter's son Robert joins the business and starts installing the new steel overhead doors for the post-war housing boom.",
        },
        {
          year: "1968",
          title: "Saginaw showroom",
          text: "A second location opens to serve the Saginaw Valley and the Thumb.",
        },
        {
          year: "1979",
          title: "Windows and siding",
          text: "After the energy crisis, customers ask for warmer homes, and we add replacement windows and siding.",
        },
        {
          year: "1994",
          title: "A commercial division",
          text: "Rolling steel doors, loading docks and a 24-hour emergency line for businesses.",
        },
        { year: "2008", title: "Lansing", text: "Our third location brings same-day service to the capital region." },
        {
          year: "2016",
          title: "Pontiac",
          text: "A fourth location for Oakland County, and seamless gutter trucks on the road.",
        },
        {
          year: "Today",
          title: "The fourth generation",
          text: "Dover great-grandchildren lead a team of technicians, installers and designers across Mid-Michigan.",
        },
      ],
    },
    {
      kind: "features",
      id: "mission",
      heading: "Mission and Vision",
      items: [
        {
          icon: "home",
          title: "Our Mission",
          text: "To make every home and business we serve safer, warmer and more welcoming, with products we would put on our own homes and service we would want for our own families.",
        },
        {
          icon: "star",
          title: "Our Vision",
          text: "To be the company Michigan families and businesses call first for anything that opens, closes or keeps the weather out, for the next ninety years.",
        },
      ],
    },
    {
      kind: "video",
      id: "video",
      heading: "Our Story in One Minute",
      text: "From one workshop in 1936 to four locations today.",
      video: {
        src: "/media/dover-story.webm",
        poster: "/images/content/about-video-poster.svg",
        width: 640,
        height: 360,
        title: "The Dover Doors & Windows story",
        transcript:
          "The video moves from a 1936 workshop sign in Flint to the company's four locations today, then shows an installation crew fitting a new garage door and ends with the company's promise: if it sticks, squeaks or leaks, call us.",
      },
      tint: true,
    },
    {
      kind: "cta",
      heading: "Come and See Us",
      text: `Visit a showroom (${company.showroomHours}) or let us come to you for a free estimate.`,
      links: [links.requestQuote, { label: "Our Service Areas", to: "/service-area", variant: "outline" }, links.call],
    },
  ],
};

const careers: ContentPage = {
  path: "/careers",
  title: "Careers",
  description:
    "Join a Michigan family company: open positions at Dover Doors & Windows for administrative, accounting, commercial door technician and sales roles.",
  banner: {
    image: "careers.svg",
    title: "Careers at Dover",
    subtitle: "Build a career with a company that has been building Michigan homes since 1936.",
    crumbs: crumbs("Careers"),
  },
  sections: [
    {
      kind: "intro",
      heading: "Work With Us",
      paragraphs: [
        "We are a family company, and we hire like one: people who take pride in their work, treat customers like neighbours and look out for each other. We offer steady year-round work, paid training, health benefits and a retirement plan with a company match.",
        `To apply, e-mail your resume to [${company.careersEmail}](mailto:${company.careersEmail}) with the job title as the subject line; each opening below has a button that prepares the message for you. You can also fill in our [employment application](/employment). Questions? Call us at [${company.phone.display}](${company.phone.href}).`,
      ],
    },
    {
      kind: "accordion",
      id: "openings",
      heading: "Current Openings",
      intro: "Select a position to read more. One opens at a time.",
      group: "careers",
      items: openingItems(),
      tint: true,
    },
    {
      kind: "cta",
      heading: "Don't See Your Job?",
      text: "We are always glad to hear from skilled installers, technicians and customer-service people. Send us your resume and tell us what you do best.",
      links: [
        {
          label: "E-mail Your Resume",
          to: `mailto:${company.careersEmail}?subject=${encodeURIComponent("General Application")}`,
          variant: "primary",
        },
        { label: "Employment Application", to: "/employment", variant: "outline" },
      ],
    },
  ],
};

const serviceArea: ContentPage = {
  path: "/service-area",
  title: "Service Areas",
  description:
    "Dover serves homes and businesses within 50 miles of Saginaw, Flint, Pontiac, Detroit, Lansing and Port Huron. See our Michigan service area map.",
  banner: {
    image: "service-area.svg",
    title: "Our Service Areas",
    subtitle: "Homes and businesses within 50 miles of six Michigan cities.",
    crumbs: crumbs("Service Areas"),
  },
  sections: [
    {
      kind: "service-map",
      heading: "Where We Work",
      intro: `Our crews and technicians cover a ${company.serviceRadiusMiles}-mile radius around each of the cities on the map, from the Saginaw Valley to the Detroit metro area and the Blue Water region.`,
    },
  ],
};

function reviewPage(path: string, title: string, h1: string, crumbLabel: string): ContentPage {
  return {
    path,
    title,
    description: `Leave a Google review for Dover Doors & Windows and enter our ${rp.monthlyPrize} monthly prize draw, or refer a friend and earn a ${rp.perReferral} gift card when they buy, up to ${rp.maxReward}.`,
    banner: {
      image: "reviews.svg",
      title: h1,
      subtitle: `Review us, refer a friend, and earn up to ${rp.maxReward}.`,
      crumbs: crumbs(crumbLabel),
    },
    sections: [
      {
        kind: "intro",
        heading: rp.headline,
        highlight: `${rp.monthlyPrize} monthly review prize · ${rp.perReferral} per referral · up to ${rp.maxReward}`,
        paragraphs: [
          `Word of mouth has kept us in business since 1936, and we like to say thank you for it. Every Google review you leave for any of our locations enters you in our monthly draw for a ${rp.monthlyPrize} gift card: one winner every month, good reviews or constructive ones alike.`,
          `Know someone who needs a new garage door, windows or gutters? Refer them to us. When your friend buys, you receive a ${rp.perReferral} gift card, for up to three referrals: up to ${rp.maxReward} in all. Just ask your friend to mention your name when they [contact us](/contact) or [request a quote](/request-quote).`,
        ],
      },
      {
        kind: "location-reviews",
        heading: "Review One of Our Locations",
        intro: "Choose the location that helped you and leave your review on Google.",
      },
      {
        kind: "steps",
        heading: "How the Referral Programme Works",
        tint: true,
        steps: [
          { icon: "users", title: "Tell a friend", text: "Share your experience with family, friends and neighbours." },
          {
            icon: "phone",
            title: "They mention you",
            text: "Your friend gives your name when they contact us for a quote.",
          },
          {
            icon: "gift",
            title: "You get rewarded",
            text: `When they buy, we send you a ${rp.perReferral} gift card, up to ${rp.maxReward}.`,
          },
        ],
      },
      { kind: "reviews", heading: "Recent Customer Reviews" },
    ],
  };
}

export const reviewPagePath = "/review";
export const referPrefix = "/refer-a-friend-referral-program-";

export const companyPages: ContentPage[] = [
  about,
  careers,
  serviceArea,
  reviewPage(reviewPagePath, "Leave a Review & Refer a Friend", "Leave a Review, Refer a Friend", "Leave a Review"),
];

/** DECISIONS 7: /refer-a-friend-referral-program-{product} renders the review page. */
export function referPage(product: string): ContentPage {
  const label = product
    .split("-")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
  return reviewPage(
    `${referPrefix}${product}`,
    `Refer a Friend: ${label} Referral Program`,
    "Refer a Friend, Earn Up to $150",
    "Refer a Friend",
  );
}
