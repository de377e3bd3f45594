import { company } from "~/lib/company";

/**
 * Every e-mail subject the site writes, and the lines of a submission's
 * e-mails that name the company (issue 28 item 2): the form handlers, the
 * checkout and the outbox's callers take them from here, never compose their
 * own. `noun` is a form's definition noun ("contact message", "order").
 */

/**
 * The noun with its indefinite article: "an order", "an invoice payment", "a
 * quote request". Chosen by the noun's first letter: every noun the site's
 * forms use is spelled as it sounds there (no "an hour", no "a user").
 */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

/** The company copy: "New quote request #12 from Jane Doe". */
export function companySubject(noun: string, id: number, name: string): string {
  return `New ${noun} #${id} from ${name}`;
}

/** The company copy's heading: "New quote request #12". */
export function companyTitle(noun: string, id: number): string {
  return `New ${noun} #${id}`;
}

/** The company copy's first sentence: "Jane Doe sent an order through the website." */
export function companyIntro(name: string, noun: string, canReply: boolean): string {
  return `${name} sent ${withArticle(noun)} through the website.${canReply ? " Reply to this e-mail to answer them." : ""}`;
}

/** The visitor's confirmation: "We received your contact message — Dover Doors & Windows". */
export function confirmationSubject(noun: string): string {
  return `We received your ${noun} — ${company.name}`;
}

/** A paid form's receipt to the payer: its own subject (below), then the company's name. */
export function receiptSubject(subject: string): string {
  return `${subject} — ${company.name}`;
}

/** The confirmation's first sentence, before the form's own note. */
export function confirmationIntro(name: string, noun: string): string {
  return `Hello ${name}, thank you for contacting ${company.name}. We received your ${noun}.`;
}

/** The line under a visitor's confirmation or receipt: who to call, and that a reply reaches a person. */
export function visitorFooter(inbox: string): string {
  return `${company.name} · Questions? Call us at ${company.phone.display}, or reply to this e-mail: replies reach our office (${inbox}).`;
}

/** An invoice payment's receipt subject (before receiptSubject adds the company). */
export function invoiceReceiptSubject(invoiceNumber: string, paid: boolean): string {
  return paid
    ? `Payment receipt for invoice ${invoiceNumber}`
    : `Your payment for invoice ${invoiceNumber} is being confirmed`;
}

/** A booked service visit's receipt subject; `day` as the receipt shows it ("Saturday, November 28, 2026"). */
export function serviceVisitReceiptSubject(day: string, paid: boolean): string {
  return paid ? `Your service visit on ${day} is booked` : `Your service visit on ${day}: payment being confirmed`;
}

/** A shop order's receipt subject, by its reference ("DO-7K3M-Q9"), never its row id. */
export function orderReceiptSubject(reference: string, paid: boolean): string {
  return paid ? `Your order ${reference} is placed` : `Your order ${reference}: payment being confirmed`;
}

/** A booked visit cancelled, to the visitor (before receiptSubject adds the company); `visit` as visitText writes it. */
export function serviceVisitCancelledSubject(visit: string): string {
  return `Your service visit on ${visit} is cancelled`;
}

/** A booked visit moved, to the visitor (before receiptSubject adds the company). */
export function serviceVisitMovedSubject(to: string): string {
  return `Your service visit is moved to ${to}`;
}

/** The company's copy of a cancellation: "Booking DV-7K3M-Q9 cancelled: Saturday, …". */
export function bookingCancelledSubject(reference: string, visit: string): string {
  return `Booking ${reference} cancelled: ${visit}`;
}

/** The company's copy of a move: "Booking DV-7K3M-Q9 moved to Monday, …". */
export function bookingMovedSubject(reference: string, to: string): string {
  return `Booking ${reference} moved to ${to}`;
}

/** A cancellation whose refund the processor did not confirm: the company must act. */
export function refundActionSubject(reference: string): string {
  return `Action needed: refund for booking ${reference}`;
}

/** A booked visit's calendar event, as the visitor's calendar lists it. */
export function serviceVisitEventTitle(): string {
  return `${company.name} service visit`;
}
