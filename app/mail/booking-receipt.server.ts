import { company } from "~/lib/company";
import type { MailRow } from "./render.server";
import { serviceVisitReceiptSubject } from "./subjects";
import type { MailReceipt } from "./submission-mail.server";
import { onlineChangesLine } from "./booking-mail.server";

/**
 * The receipt of a residential booking (issue 37 item 2): the visitor's e-mail and the lines the
 * company's copy leads with, composed here from the facts app/booking/form/handle.server.ts hands
 * over. A paid booking's receipt says it is booked and paid; one whose payment the processor is
 * still confirming says so, and not to pay again.
 */
export type BookedVisitFacts = {
  name: string;
  reference: string;
  /** "Saturday, November 28, 2026". */
  day: string;
  /** The arrival window: "Morning (8 AM to 11 AM)". */
  window: string;
  /** The service address on one line. */
  address: string;
  /** "$159.00". */
  amount: string;
  /** "Visa ending in 4242" (app/payments/words.ts `cardLabel`), or "your card". */
  card: string;
  /** Approved; false while the processor is still confirming the charge. */
  paid: boolean;
  /** When the booking can no longer be changed online (the cut-off before its window). */
  deadline: Date;
  /** The booking's words: until when it can be changed online, what happens next, the change rules. */
  words: { changeWindow: string; next: string; changing: string };
  /** The booking's page. */
  manageUrl: string;
  /** What the visitor typed, for their records (labelled; never the card). */
  details: MailRow[];
};

/** The receipt e-mail of a booking, paid or being confirmed. */
export function bookingReceipt(v: BookedVisitFacts): MailReceipt {
  const common = {
    subject: serviceVisitReceiptSubject(v.day, v.paid),
    facts: visitorFacts(v),
    action: { label: v.paid ? "See, change or cancel your booking" : "See your booking", url: v.manageUrl },
    rows: v.details,
    staffFacts: staffFacts(v),
  };
  return v.paid
    ? {
        ...common,
        title: "Your service visit is booked",
        intro: `Thank you, ${v.name}. Your garage door service visit is booked and paid; keep this e-mail for your records.`,
        sections: [
          { heading: "What happens next", paragraphs: [v.words.next] },
          // Until when, for this visit (or that it is inside the cut-off already), then the rules.
          { heading: "Changing or cancelling", paragraphs: [v.words.changeWindow, v.words.changing] },
        ],
      }
    : {
        ...common,
        title: "Your visit is booked; the payment is being confirmed",
        intro: `Hello ${v.name}. Your visit is booked, and the card processor is still confirming your payment. Please do not pay again.`,
        sections: [
          {
            heading: "What happens next",
            paragraphs: ["We will e-mail or call you as soon as the payment is confirmed.", v.words.next],
          },
          {
            heading: "Changing or cancelling",
            paragraphs: [
              `While the payment is being confirmed, the booking's page shows your visit but cannot change it yet: call us at ${company.phone.display} with your booking reference.`,
              v.words.changing,
            ],
          },
        ],
      };
}

/** What the visitor looks for first: which visit, where, what was paid and with which card. */
function visitorFacts(v: BookedVisitFacts): MailRow[] {
  return [
    { label: "Booking reference", value: v.reference },
    { label: "Day", value: v.day },
    { label: "Arrival window", value: v.window },
    { label: "Address", value: v.address },
    v.paid
      ? { label: "Paid", value: `${v.amount} charged to ${v.card}` }
      : { label: "Payment", value: `${v.amount} on ${v.card}, being confirmed with the card processor` },
  ];
}

/** What the company's copy leads with: the booking, its state, the visit and whether it can still change online. */
function staffFacts(v: BookedVisitFacts): MailRow[] {
  return [
    { label: "Booking reference", value: v.reference },
    { label: "State", value: v.paid ? "Booked" : "Booked, payment being confirmed" },
    { label: "Visit", value: `${v.day}, ${v.window}` },
    { label: "Online changes", value: onlineChangesLine(v.deadline, { pending: !v.paid }) },
  ];
}
