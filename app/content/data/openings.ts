import { company } from "~/lib/company";
import type { AccordionItem } from "../page-types";

/** Open positions on the careers page (SPEC §2 Careers). */
export type Opening = {
  id: string;
  title: string;
  schedule: string;
  location: string;
  summary: string;
  duties: string[];
  requirements: string[];
  pay?: string;
};

export const openings: Opening[] = [
  {
    id: "administrative-assistant",
    title: "Administrative Assistant",
    schedule: "Full-time",
    location: "Flint Showroom",
    summary:
      "You are the first voice many customers hear. You answer the phones, book estimates and service calls, and keep our technicians' schedules running on time.",
    duties: [
      "Answer customer calls and e-mails and book appointments",
      "Prepare quotes and work orders from the sales team's notes",
      "Keep customer records and job files up to date",
      "Greet showroom visitors and help them find the right person",
    ],
    requirements: [
      "One year or more of office or customer-service experience",
      "Comfortable with e-mail, spreadsheets and scheduling software",
      "A friendly phone manner and a knack for keeping things organised",
    ],
  },
  {
    id: "accounting-and-bookkeeping",
    title: "Accounting and Bookkeeping",
    schedule: "Full-time",
    location: "Flint Showroom",
    summary:
      "Help a family business keep its books in order: invoices, supplier payments, payroll support and the month-end close.",
    duties: [
      "Process accounts payable and receivable",
      "Reconcile bank and card statements each month",
      "Support payroll and job costing",
      "Follow up on open invoices with courtesy and persistence",
    ],
    requirements: [
      "Associate degree in accounting or equivalent experience",
      "Experience with QuickBooks or similar accounting software",
      "Accuracy, discretion and a good eye for detail",
    ],
  },
  {
    id: "commercial-door-technician",
    title: "Commercial Door Technician",
    schedule: "Full-time",
    location: "Flint, Lansing, Pontiac or Saginaw",
    summary:
      "Install, repair and maintain sectional doors, rolling steel doors, operators and dock equipment for the businesses that rely on us.",
    duties: [
      "Diagnose and repair commercial doors, operators and dock levelers",
      "Install new doors and operators to manufacturer specifications",
      "Carry out preventive maintenance visits",
      "Take part in the 24/7 emergency on-call rotation",
    ],
    requirements: [
      "Mechanical aptitude; door, dock or electrical experience is a plus",
      "A valid driver's licence and a good driving record",
      "Able to work at height and lift 75 pounds",
      "We train motivated beginners: tell us why you'd like to learn the trade",
    ],
    pay: "$19-28 per hour plus a monthly bonus",
  },
  {
    id: "sales-representative",
    title: "Sales Representative",
    schedule: "Full-time",
    location: "Lansing or Pontiac",
    summary:
      "Meet homeowners and business owners, measure their openings and help them choose doors and windows they will be glad of for decades.",
    duties: [
      "Visit customers for in-home and on-site consultations",
      "Measure openings and prepare accurate quotes",
      "Follow each job from order to installation",
      "Represent us at home shows and in the showroom",
    ],
    requirements: [
      "Sales experience, ideally in home improvement or construction",
      "Able to read measurements and explain products simply",
      "A valid driver's licence and reliable transport",
    ],
  },
];

/** A prepared e-mail to the careers address with the job title as subject. */
export function applyMailto(title: string): string {
  const body = `Hello,\n\nPlease find my resume attached for the ${title} position.\n\n`;
  return `mailto:${company.careersEmail}?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(body)}`;
}

export function openingItems(): AccordionItem[] {
  return openings.map((o) => ({
    id: o.id,
    title: o.title,
    meta: `${o.schedule} · ${o.location}`,
    paragraphs: [o.summary],
    lists: [
      { heading: "What you'll do", items: o.duties },
      { heading: "What you'll bring", items: o.requirements },
    ],
    facts: o.pay ? [{ label: "Starting pay", value: o.pay }] : undefined,
    action: { label: `Apply for ${o.title} by e-mail`, to: applyMailto(o.title), variant: "primary" },
  }));
}
