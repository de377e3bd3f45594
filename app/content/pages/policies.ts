import { changePolicy } from "~/booking/policy";
import { MAX_QUOTE_PHOTOS, MAX_SERVICE_PHOTOS } from "~/forms/options";
import { formatUsd } from "~/payments/money";
import { SERVICE_PRICE_CENTS } from "~/booking/service-price";
import { TAX_NOTE } from "~/shop/pricing";
import { company, locationData } from "~/lib/company";
import type { ContentPage, Section } from "../page-types";
import { crumbs } from "./helpers";

/**
 * The privacy notice and the terms (DECISIONS 38, issue 38 item 7), written for this site and
 * true to what it does: the forms' fields (app/forms/*\/schema.ts, app/shop/checkout/schema.ts),
 * what is stored and for how long (DECISIONS 28, the housekeeping in server/maintenance.ts), the
 * cookies (the cart's, the colour scheme's, the recent payment's, a paid form's answer's), the card processor, and the
 * rules for changing a booking (app/booking/policy.ts) and an order. What depends on the server's
 * settings (how long mail text is kept, the booking's change cut-off, which Google services are
 * switched on) is said as the server is configured: the loader builds these pages from
 * `PolicySettings` (page-data.server.ts); the defaults are the settings' own.
 */
export type PolicySettings = {
  /** MAIL_RETENTION_DAYS */
  mailRetentionDays: number;
  /** BOOKING_CHANGE_CUTOFF_HOURS */
  changeCutoffHours: number;
  /** RATE_LIMIT_WINDOW_SECONDS, in minutes */
  rateLimitMinutes: number;
  /** Google reCAPTCHA instead of the self-hosted spam check (RECAPTCHA_SITE_KEY and _SECRET_KEY). */
  recaptcha: boolean;
  /** The interactive Google map on /service-area (GOOGLE_MAPS_API_KEY). */
  googleMaps: boolean;
  /** Reviews fetched from Google by the server (GOOGLE_PLACES_API_KEY and GOOGLE_PLACE_ID). */
  googleReviews: boolean;
};

export const DEFAULT_POLICY_SETTINGS: PolicySettings = {
  mailRetentionDays: 30,
  changeCutoffHours: 24,
  rateLimitMinutes: 10,
  recaptcha: false,
  googleMaps: false,
  googleReviews: false,
};

const headOffice = locationData[0]!;
const contactLine = `e-mail [${company.email}](mailto:${company.email}), call [${company.phone.display}](${company.phone.href}), or write to ${company.name}, ${headOffice.address}, ${headOffice.city}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A section of plain reading, and one of its entries (a form, a cookie). */
type ProseSection = Extract<Section, { kind: "prose" }>;
type ProseEntry = NonNullable<ProseSection["entries"]>[number];

/** The privacy notice (/privacy): what is kept, why, for how long, who sees it, the cookies, and how to ask. */
function privacyPage(s: PolicySettings): ContentPage {
  return {
    path: "/privacy",
    title: "Privacy Notice",
    description:
      "What Dover Doors & Windows keeps from each form, why, for how long and who sees it; the cookies the site sets; how to ask for a copy or deletion.",
    banner: {
      image: "contact.svg",
      title: "Privacy Notice",
      subtitle: "What we keep, why, for how long, and how to ask for a copy or deletion.",
      crumbs: crumbs("Privacy Notice"),
    },
    sections: [
      privacySummarySection(s),
      privacyFormsSection(),
      privacyRetentionSection(s),
      privacyRecipientsSection(s),
      privacyCookiesSection(),
      privacyRequestsSection(),
      privacyQuestionsSection(),
    ],
  };
}

/** In Short: what we keep and why, and whose scripts the site loads. */
function privacySummarySection(s: PolicySettings): ProseSection {
  return {
    kind: "prose",
    id: "summary",
    heading: "In Short",
    paragraphs: [
      `${company.name} keeps what you send us through this site's forms so that we can answer you, do the work you ask for and take payment for it. We do not sell it, we do not use it for advertising, and there are no accounts or logins: nothing is collected while you simply read the site.`,
      s.recaptcha || s.googleMaps
        ? "The site has no analytics or advertising trackers. Google's services named under Who Sees It below load Google's own scripts in your browser where they are used."
        : "The site has no analytics, no advertising trackers and no scripts from other companies: every script and the spam check on our forms come from our own server.",
    ],
  };
}

/** What Each Form Collects, and Why: one entry per form, and a note on card payments. */
function privacyFormsSection(): ProseSection {
  const card =
    "The card number, expiry and CVC go from our server straight to our card processor to make the charge; we never store them, and they are never in an e-mail or a log. We keep the card's brand, its last four digits and the processor's transaction number.";
  return {
    kind: "prose",
    id: "forms",
    heading: "What Each Form Collects, and Why",
    paragraphs: [
      "Every form also records the time it was sent and the internet (IP) address it came from, kept with the submission, so that we can spot abuse. Each form carries a hidden spam trap and a spam check; neither collects anything about you.",
    ],
    entries: [...privacyRequestFormEntries(), ...privacyPaymentFormEntries(), ...privacyOtherEntries()],
    after: [
      `About card payments: ${card}`,
      "The reviews shown on our pages are ones customers chose to publish, with the name and rating they published them with; this site has no review form of its own (our [Reviews](/review) page links to Google's).",
    ],
  };
}

/** The forms that ask us for something: contact, quotes and service. */
function privacyRequestFormEntries(): ProseEntry[] {
  return [
    {
      title: "Contact (/contact)",
      facts: [
        { label: "What we keep", value: "Your first and last name, e-mail address, phone number and message." },
        { label: "Why", value: "To answer your question." },
      ],
    },
    {
      title: "Quote requests (/request-quote and the short form on product pages)",
      facts: [
        {
          label: "What we keep",
          value: `Your name, phone, e-mail, ZIP code, what you would like a quote for, how and when you would like us to contact you and to start, whether financing interests you, how you would like to meet, and your project's description; on the full form also a business name, whether you are an existing customer, and up to ${MAX_QUOTE_PHOTOS} photos.`,
        },
        { label: "Why", value: "To prepare your quote and arrange a visit or a call." },
      ],
    },
    {
      title: "Booking a residential service visit (/request-service)",
      facts: [
        {
          label: "What we keep",
          value: `Your name, phone, e-mail and the visit's address, the day and time window you chose, the problem you describe, how you would like us to contact you, up to ${MAX_SERVICE_PHOTOS} photos, the payment (see the card note below), and the booking's history (moved, cancelled, refunded). The link to your booking's page is kept only as a one-way fingerprint, so even we cannot read it back.`,
        },
        {
          label: "Why",
          value:
            "To book and carry out the visit, take its payment, and send your receipt, the calendar invitation, a reminder before the visit and word of any change.",
        },
      ],
    },
    {
      title: "Commercial service requests",
      facts: [
        {
          label: "What we keep",
          value: `Your name, phone, e-mail and the address where the work is needed, the day and time you would like, the problem you describe, how you would like us to contact you, and up to ${MAX_SERVICE_PHOTOS} photos.`,
        },
        { label: "Why", value: "To schedule the service call and send the technician prepared." },
      ],
    },
  ];
}

/** The forms that take a payment: the shop's checkout and an invoice. */
function privacyPaymentFormEntries(): ProseEntry[] {
  return [
    {
      title: "Shop checkout (/checkout)",
      facts: [
        {
          label: "What we keep",
          value:
            "Your name, e-mail, phone and billing address, the installation address (the billing one unless you give another), what you ordered, and the payment (see the card note below). The link to your order's page is kept only as a one-way fingerprint.",
        },
        {
          label: "Why",
          value: "To take payment, call you to schedule the installation, install, and send your receipt.",
        },
      ],
    },
    {
      title: "Paying an invoice (/pay-invoice)",
      facts: [
        {
          label: "What we keep",
          value:
            "Your name, e-mail and billing address, the invoice number and the amount, and the payment (see the card note below).",
        },
        { label: "Why", value: "To apply the payment to your invoice and send your receipt." },
      ],
    },
  ];
}

/** The discount sign-up, the job application and the shopping cart. */
function privacyOtherEntries(): ProseEntry[] {
  return [
    {
      title: "Discount sign-up (/discount-signup-2025)",
      facts: [
        {
          label: "What we keep",
          value: "Your first and last name, e-mail, phone and the product that interests you.",
        },
        { label: "Why", value: "To contact you with the discount for that product." },
      ],
    },
    {
      title: "Employment application (/employment)",
      facts: [
        {
          label: "What we keep",
          value:
            "Your name, address, phone, e-mail, the date you could start, the position and salary you seek, your answers about work authorization, citizenship, past work with us and any felony conviction, your education, and your statement; and your Social Security number.",
        },
        {
          label: "The Social Security number",
          value:
            "Is encrypted (AES-256) before it is stored, with a key kept apart from the database. It is never shown back to you, never put in an e-mail (ours says only that one was given) and never written to a log.",
        },
        { label: "Why", value: "To consider your application and contact you about it." },
      ],
    },
    {
      title: "Your shopping cart",
      facts: [
        {
          label: "What we keep",
          value:
            "The products, options and quantities you put in it, under a random number held in a cookie in your browser; no name or address.",
        },
        { label: "Why", value: "So the cart is still there when you come back." },
      ],
    },
  ];
}

/** How Long We Keep It: the records kept, and what is cleared or deleted when. */
function privacyRetentionSection(s: PolicySettings): ProseSection {
  const mailKept = `The text of every e-mail we send you (and our office's copy) is cleared ${plural(s.mailRetentionDays, "day")} after it is sent; we keep only who it went to, its subject and when.`;
  return {
    kind: "prose",
    id: "how-long",
    heading: "How Long We Keep It",
    list: [
      "Submissions, bookings, orders, payments and job applications are business records, the record of what was asked, done and paid for, which accounting, tax and warranties rely on: we keep them, unless you ask us to delete what we do not have to keep (see below).",
      "Photos you send are kept with the request they came with.",
      mailKept,
      "A cart is deleted 91 days after it was started (its cookie ends after 90).",
      "A payment form's answer sent without JavaScript (a declined card, a price shown), kept so that the next page can show it, is deleted after an hour.",
      `The counters that limit how often one internet address can send a form are deleted when their ${plural(s.rateLimitMinutes, "minute")} are up; a spam check's answer is forgotten when it expires.`,
      "Our server's logs record errors and refused requests; they never hold a card number, CVC, Social Security number or the link to a booking or an order.",
    ],
  };
}

/** Who Sees It: our staff, the card processor, the e-mail provider, and Google where its services are switched on. */
function privacyRecipientsSection(s: PolicySettings): ProseSection {
  return {
    kind: "prose",
    id: "who-sees-it",
    heading: "Who Sees It",
    list: [
      "Our office staff and the technicians or installers doing your job; for a job application, the people hiring. A copy of each submission is e-mailed to our office.",
      "Our card processor, for a card payment: it makes the charge and keeps its own records under the card networks' rules.",
      "Our e-mail provider, which delivers the e-mails we send you and our office.",
      ...(s.recaptcha
        ? [
            "Google, through reCAPTCHA, the spam check on our forms: it loads in your browser and Google's privacy policy applies to it.",
          ]
        : []),
      ...(s.googleMaps
        ? [
            "Google, through the map on our Service Areas page: it loads in your browser on that page and Google's privacy policy applies to it.",
          ]
        : []),
      ...(s.googleReviews
        ? ["Google gives our server its public reviews of us; nothing about you is sent to Google for that."]
        : []),
      "No one else, unless the law requires it. We never sell or rent what you send us.",
    ],
  };
}

/** Cookies: the four the site may set, when, what each holds and for how long. */
function privacyCookiesSection(): ProseSection {
  return {
    kind: "prose",
    id: "cookies",
    heading: "Cookies",
    paragraphs: [
      "The site sets at most four small cookies, each only when you do the thing it is for, and none for tracking or advertising.",
    ],
    entries: [
      {
        title: "cart",
        facts: [
          { label: "Set when", value: "You first add something to your cart." },
          {
            label: "Holds",
            value:
              "A random number naming your cart, signed so that it cannot be forged; your browser's scripts cannot read it.",
          },
          { label: "Kept", value: "90 days." },
        ],
      },
      {
        title: "color-scheme",
        facts: [
          { label: "Set when", value: "You choose light, dark or system colours with the button in the header." },
          {
            label: "Holds",
            value:
              "Your choice (light, dark or auto), also kept in your browser's storage so that other tabs follow it.",
          },
          { label: "Kept", value: "One year." },
        ],
      },
      {
        title: "recent_payment",
        facts: [
          { label: "Set when", value: "You have just paid with one of our forms." },
          {
            label: "Holds",
            value:
              "Which form you paid with and your receipt's address, so that going Back shows your receipt's link instead of an empty form inviting a second payment; your browser's scripts cannot read it.",
          },
          { label: "Kept", value: "One hour." },
        ],
      },
      {
        title: "posted_answer",
        facts: [
          {
            label: "Set when",
            value:
              "A payment form sent from a browser without JavaScript was not paid (a declined card, a full time slot) or showed a price.",
          },
          {
            label: "Holds",
            value:
              "A random number naming what the form answered, which our server keeps for an hour with what you had typed (never the card number or CVC), so that the page after sending shows it and going Back never shows a stale form; your browser's scripts cannot read it.",
          },
          { label: "Kept", value: "One hour, or until the payment goes through." },
        ],
      },
    ],
  };
}

/** A Copy of Your Data, or Its Deletion: how to ask, and what we check first. */
function privacyRequestsSection(): ProseSection {
  return {
    kind: "prose",
    id: "your-choices",
    heading: "A Copy of Your Data, or Its Deletion",
    paragraphs: [
      `To ask for a copy of what we keep about you, or for its deletion, ${contactLine}. Tell us the e-mail address or phone number you used on the site, and your booking or order reference if you have one.`,
      "Before we send or delete anything we check that the request comes from you, using the e-mail address or phone number on the record. We delete everything we are not required to keep; records of payments, orders and completed work stay for as long as tax and warranty rules require, and we tell you which.",
    ],
  };
}

/** Questions: whom to ask about the notice. */
function privacyQuestionsSection(): ProseSection {
  return {
    kind: "prose",
    id: "contact",
    heading: "Questions",
    paragraphs: [
      `Questions about this notice: ${contactLine}. When we change what we collect, we change this page first. See also our [terms of sale and service](/terms).`,
    ],
  };
}

/** The terms of sale and service (/terms): prices, payment, installation, changes and returns. */
function termsPage(s: PolicySettings): ContentPage {
  return {
    path: "/terms",
    title: "Terms of Sale and Service",
    description:
      "How Dover Doors & Windows sells and installs: installed prices with sales tax included, payment, installation, changing a booking or an order, and returns.",
    banner: {
      image: "shop.svg",
      title: "Terms of Sale and Service",
      subtitle: "Prices, payment, installation, changes, cancellations and returns.",
      crumbs: crumbs("Terms of Sale and Service"),
    },
    sections: [
      termsScopeSection(),
      termsPricesSection(),
      termsPaymentSection(),
      termsInstallationSection(),
      termsChangesSection(s),
      termsReturnsSection(),
      termsLinksSection(),
      termsQuestionsSection(),
    ],
  };
}

/** What These Terms Cover: the shop, service visits and invoices paid on the site. */
function termsScopeSection(): ProseSection {
  return {
    kind: "prose",
    id: "scope",
    heading: "What These Terms Cover",
    paragraphs: [
      `These terms apply to what you buy or pay for on this site: products from our [shop](/shop), residential service visits booked at [Request Service](/request-service), and invoices paid at [Pay Invoice](/pay-invoice). Quotes and commercial work are agreed with you in writing, job by job. ${company.name} installs what it sells, with its own crews.`,
    ],
  };
}

/** Prices and Sales Tax: installed prices with tax included, and how a service visit is priced. */
function termsPricesSection(): ProseSection {
  return {
    kind: "prose",
    id: "prices",
    heading: "Prices and Sales Tax",
    paragraphs: [
      `Prices are in US dollars and are installed prices: a shop price includes installation by our crew and Michigan sales tax. ${TAX_NOTE} The cart, the checkout, your receipt and your order's page say so beside the total.`,
      `A residential service visit is priced by its day and time window (weekdays from ${formatUsd(SERVICE_PRICE_CENTS.standard)}; evenings, Saturdays, Sundays and holidays cost more), and the booking form shows the price before you pay. Any repair or part the technician finds necessary is priced before work starts.`,
      "Every amount is worked out by our server from today's catalogue and prices; the amount you are shown before you pay is the amount charged.",
    ],
  };
}

/** Payment: when an order or booking is made, a declined or delayed card, and the stock checks. */
function termsPaymentSection(): ProseSection {
  return {
    kind: "prose",
    id: "payment",
    heading: "Payment",
    list: [
      "You pay by card when you place an order, book a visit or pay an invoice. Your order or booking is made when the payment is approved: you see its page and we e-mail you a receipt with its link.",
      "A declined card charges nothing. If the card processor's answer is delayed, your order or booking is kept and shown as pending, and we e-mail you once the payment is confirmed: please do not pay again.",
      "Stock is checked when you add a product to your cart and again at checkout; a product that runs out is refused before anything is charged, and the last unit goes to one buyer only.",
    ],
  };
}

/** Installation: where we install, how the day is agreed, and what happens if it cannot go as ordered. */
function termsInstallationSection(): ProseSection {
  return {
    kind: "prose",
    id: "installation",
    heading: "Installation",
    list: [
      `We install only within our [service area](/service-area): ${company.serviceRadiusMiles} miles around Saginaw, Flint, Pontiac, Detroit, Lansing and Port Huron.`,
      "After your order, a service representative calls you within two business days to agree the installation's day. Your order's page shows where it stands: received, installation scheduled, installed.",
      "Please make sure our crew can reach the opening and has power nearby. If, on the day, the product cannot be installed as ordered (an opening of another size, hidden damage), we tell you before any work starts and you choose between a change we price for you and a full refund of that item.",
    ],
  };
}

/** Changing or Cancelling: a service visit (by the server's cut-off), a shop order and an invoice payment. */
function termsChangesSection(s: PolicySettings): ProseSection {
  return {
    kind: "prose",
    id: "changes",
    heading: "Changing or Cancelling",
    paragraphs: [
      `A service visit: ${changePolicy(s.changeCutoffHours)} A refund the card processor has not yet confirmed is shown as pending on your booking's page until it is.`,
      `A shop order: orders are changed or cancelled by phone, not online. Call us at [${company.phone.display}](${company.phone.href}) with your order reference. Until your installation is scheduled, we cancel an order in full and refund the card that paid; after that, we agree any change with you, and the returns rules below apply.`,
      `An invoice payment is applied to the invoice you named. If you paid the wrong invoice or amount, call us and we will put it right or refund it.`,
    ],
  };
}

/** Returns and Warranty: what can be returned, and how a warranty claim is made. */
function termsReturnsSection(): ProseSection {
  return {
    kind: "prose",
    id: "returns",
    heading: "Returns and Warranty",
    list: [
      "Stock items delivered to you and left unopened can be returned within 30 days of delivery for a full refund to the card that paid: call us to arrange the pick-up.",
      "Custom-configured doors and windows (made to your sizes, colours or options) and completed installations cannot be returned.",
      `Warranty claims are made by phone: call [${company.phone.display}](${company.phone.href}) with your order or booking reference, and we arrange a visit.`,
    ],
  };
}

/** Your Booking's and Your Order's Links: the private links that stand in for accounts. */
function termsLinksSection(): ProseSection {
  return {
    kind: "prose",
    id: "links",
    heading: "Your Booking's and Your Order's Links",
    paragraphs: [
      "There are no accounts on this site. The e-mail we send after you pay holds a private link to your booking's or your order's page: anyone with the link can see that page, so keep it to yourself. If you lose it, call us with your reference.",
      "How we handle what you send us is explained in our [privacy notice](/privacy).",
    ],
  };
}

/** Questions: how to reach us, and the showrooms' hours. */
function termsQuestionsSection(): ProseSection {
  return {
    kind: "prose",
    id: "contact",
    heading: "Questions",
    paragraphs: [
      `Call [${company.phone.display}](${company.phone.href}) or e-mail [${company.email}](mailto:${company.email}). Our showrooms are open ${company.showroomHours}.`,
    ],
  };
}

/** /privacy and /terms, with what depends on the server's settings as they are. */
export function policyPages(settings: PolicySettings = DEFAULT_POLICY_SETTINGS): ContentPage[] {
  return [privacyPage(settings), termsPage(settings)];
}

export const POLICY_PATHS = ["/privacy", "/terms"] as const;
