import type { DbOrTx } from "@db/client.server";
import { company } from "~/lib/company";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import { calendarAttachment, calendarCancelAttachment, type CalendarInvite } from "./calendar.server";
import { enqueueMail, wakeMailWorker } from "./outbox.server";
import { plainText, type MailRow, type SubmissionMail } from "./render.server";
import {
  bookingCancelledSubject,
  bookingMovedSubject,
  receiptSubject,
  serviceVisitCancelledSubject,
  serviceVisitMovedSubject,
  visitorFooter,
} from "./subjects";

/**
 * The mails of a change to a booking after it was paid (issue 29): to the visitor (with the
 * calendar's update) and to the company, which is told what changed. Composed here, sent by the
 * outbox like every other mail. The visitor's lead with the facts (reference, visit, money),
 * then what to do next and the link back to the booking's page; the company's say what changed.
 */
export type BookingMailFacts = {
  id: number;
  reference: string;
  name: string;
  email: string;
  /** The visit as it now stands: "Saturday, November 28, 2026, Morning (8 AM to 11 AM)". */
  visit: string;
  /** The booking as the company's copies list it (reference, visit, address, amount, card). */
  rows: MailRow[];
  /** The visit's invitation as it now stands (its date and window the booking's current ones). */
  invite: CalendarInvite;
  /** The invitation's new SEQUENCE (one higher than the last one sent). */
  sequence: number;
  /** The booking's page (SITE_URL + /booking/{token}), when the caller has the token: the visitor's mails link to it. */
  manageUrl?: string;
  /** When the booking can no longer be changed online: the cut-off before its window (DECISIONS 31). */
  deadline: Date;
  /** The booking's own words on what happens next and on changing or cancelling (app/booking/policy.ts). */
  policy: { next: string; changing: string };
};

/** The residential booking form, where a visitor books again. */
const bookAgainPath = "/request-service?type=residential";

const deadlineFormat = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: COMPANY_TIME_ZONE,
});

/**
 * The company copy's "Online changes" line: whether the visitor can still change or cancel the
 * booking from its page, and until when (the cut-off, DECISIONS 31, in company time).
 */
export function onlineChangesLine(deadline: Date, { pending = false, now = new Date() } = {}): string {
  const hours = env().BOOKING_CHANGE_CUTOFF_HOURS;
  if (now.getTime() >= deadline.getTime())
    return `No: the window starts within ${hours} hours, so changes are by phone only.`;
  const until = `${deadlineFormat.format(deadline)} (Detroit time)`;
  return pending
    ? `Not while the payment is being confirmed; once it is, until ${until}. After that, by phone only.`
    : `Yes, from the link in their receipt, until ${until}. After that, by phone only.`;
}

const source = (b: BookingMailFacts) => ({ table: "service_requests", id: b.id });
const written = (content: SubmissionMail) => ({ text: plainText(content), content });

/** The money line as the visitor was given it, shown to the company too. */
const MONEY_LABEL = "Money (as the visitor was told)";

export async function mailCancellation(tx: DbOrTx, b: BookingMailFacts, money: string): Promise<void> {
  const e = env();
  const visitor: SubmissionMail = {
    title: "Your service visit is cancelled",
    intro: `Hello ${b.name}. As you asked on your booking's page, your service visit is cancelled.`,
    facts: [
      { label: "Booking reference", value: b.reference },
      { label: "Cancelled visit", value: b.visit },
      { label: "Address", value: b.invite.location },
      { label: "Your money", value: money },
    ],
    sections: [
      {
        heading: "Need us another time?",
        paragraphs: [
          `Book a new visit at ${e.SITE_URL}${bookAgainPath}, or call us at ${company.phone.display} and we will find a time with you.`,
        ],
      },
    ],
    action: b.manageUrl ? { label: "See your booking", url: b.manageUrl } : undefined,
    rows: [],
    footer: visitorFooter(e.COMPANY_INBOX),
  };
  const staff: SubmissionMail = {
    title: `Booking ${b.reference} cancelled by the visitor`,
    intro: `${b.name} cancelled their service visit from the booking's page.`,
    facts: [
      { label: "What changed", value: `Cancelled. It was booked for ${b.visit}.` },
      { label: MONEY_LABEL, value: money },
      { label: "The slot", value: `The place on ${b.visit} is free again.` },
    ],
    rowsHeading: "The booking",
    rows: b.rows,
  };
  await enqueueMail(
    tx,
    {
      to: b.email,
      replyTo: e.COMPANY_INBOX,
      subject: receiptSubject(serviceVisitCancelledSubject(b.visit)),
      ...written(visitor),
      kind: "receipt",
      source: source(b),
      attachments: [await calendarCancelAttachment(b.invite, { name: b.name, email: b.email }, b.sequence)],
    },
    {
      to: e.COMPANY_INBOX,
      replyTo: b.email,
      subject: bookingCancelledSubject(b.reference, b.visit),
      ...written(staff),
      source: source(b),
    },
  );
  wakeMailWorker();
}

/**
 * Money that went back later than the change's mails said (a refund sent once its charge settled,
 * or confirmed by the reconciler after an unknown answer): the visitor and the company are told
 * what moved, in the ledger's words.
 */
export async function mailMoneyBack(tx: DbOrTx, b: BookingMailFacts, money: string): Promise<void> {
  const e = env();
  const visitor: SubmissionMail = {
    title: "Your money went back",
    intro: `Hello ${b.name}. As we said we would, we confirm the money for your booking ${b.reference}.`,
    facts: [
      { label: "Booking reference", value: b.reference },
      { label: "Your money", value: money },
    ],
    rows: [],
    footer: visitorFooter(e.COMPANY_INBOX),
  };
  const staff: SubmissionMail = {
    title: `Booking ${b.reference}: money confirmed by the processor`,
    intro: `The card processor confirmed money for booking ${b.reference} after the change's mails were sent.`,
    facts: [{ label: "What moved", value: money }],
    rowsHeading: "The booking",
    rows: b.rows,
  };
  await enqueueMail(
    tx,
    {
      to: b.email,
      replyTo: e.COMPANY_INBOX,
      subject: receiptSubject(`Your money for booking ${b.reference}`),
      ...written(visitor),
      kind: "receipt",
      source: source(b),
    },
    {
      to: e.COMPANY_INBOX,
      replyTo: b.email,
      subject: `Booking ${b.reference}: money confirmed (${money.slice(0, 60)})`,
      ...written(staff),
      source: source(b),
    },
  );
  wakeMailWorker();
}

/**
 * The visit moved to another window (DECISIONS 31), `b` as the booking now stands (its invite
 * the new window): the visitor's mail with the invitation updated (METHOD:REQUEST, the same
 * UID, SEQUENCE b.sequence: the calendar replaces the event it has), and the company's saying
 * what changed. `from` and `to` as visitText writes them; `money` the line the visitor was
 * given (the difference charged, refunded, or nothing).
 */
export async function mailRescheduled(
  tx: DbOrTx,
  b: BookingMailFacts,
  change: { from: string; to: string; money: string },
): Promise<void> {
  const e = env();
  const visitor: SubmissionMail = {
    title: "Your service visit is moved",
    intro: `Hello ${b.name}. As you asked, your service visit is moved to ${change.to}. The calendar invitation in this e-mail replaces the one we sent before.`,
    facts: [
      { label: "Booking reference", value: b.reference },
      { label: "New visit", value: change.to },
      { label: "Was", value: change.from },
      { label: "Address", value: b.invite.location },
      { label: "Your money", value: change.money },
    ],
    sections: [
      { heading: "What happens next", paragraphs: [b.policy.next] },
      { heading: "Changing or cancelling", paragraphs: [b.policy.changing] },
    ],
    action: b.manageUrl ? { label: "See, change or cancel your booking", url: b.manageUrl } : undefined,
    rows: [],
    footer: visitorFooter(e.COMPANY_INBOX),
  };
  const staff: SubmissionMail = {
    title: `Booking ${b.reference} moved by the visitor`,
    intro: `${b.name} moved their service visit to another window from the booking's page.`,
    facts: [
      { label: "From", value: change.from },
      { label: "To", value: change.to },
      { label: MONEY_LABEL, value: change.money },
      { label: "The slots", value: "The place in the old window is free again; one in the new window is taken." },
      { label: "Online changes", value: onlineChangesLine(b.deadline) },
    ],
    rowsHeading: "The booking",
    rows: b.rows,
  };
  await enqueueMail(
    tx,
    {
      to: b.email,
      replyTo: e.COMPANY_INBOX,
      subject: receiptSubject(serviceVisitMovedSubject(change.to)),
      ...written(visitor),
      kind: "receipt",
      source: source(b),
      attachments: [await calendarAttachment(b.invite, { name: b.name, email: b.email }, { sequence: b.sequence })],
    },
    {
      to: e.COMPANY_INBOX,
      replyTo: b.email,
      subject: bookingMovedSubject(b.reference, change.to),
      ...written(staff),
      source: source(b),
    },
  );
  wakeMailWorker();
}
