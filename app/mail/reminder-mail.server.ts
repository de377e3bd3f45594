import type { DbOrTx } from "@db/client.server";
import { company } from "~/lib/company";
import { companyClock, todayInDetroit } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import type { BookingMailFacts } from "./booking-mail.server";
import { enqueueMail, type OutgoingMail } from "./outbox.server";
import { plainText, type SubmissionMail } from "./render.server";
import { receiptSubject, visitorFooter } from "./subjects";

/**
 * The reminder of a booked service visit, e-mailed REMINDER_LEAD_HOURS before its window (two
 * days by default, a day before online changes close: DECISIONS 37; sent by
 * app/booking/reminders.server.ts): the reference, when, where, what happens next, and the
 * booking's own link, to see it and, until the cut-off it names, move or cancel it. To the
 * visitor only: the company has its schedule.
 */
export type ReminderFacts = {
  booking: BookingMailFacts;
  /** The visit's calendar date (YYYY-MM-DD) and as people write it ("Tuesday, March 10, 2026"). */
  date: string;
  day: string;
  /** The window as booked: "Morning (8 AM to 11 AM)". */
  window: string;
  /** The service address on one line. */
  address: string;
  /** The manage link (/booking/{token} on SITE_URL). */
  manageUrl: string;
  /** Until when the visit can still be changed online; null once that has closed (then by phone). */
  changeUntil: Date | null;
  /** When the reminder is written: "tomorrow" is counted from here, in company time. */
  now: Date;
};

/** "tomorrow", "today", or "on Tuesday, March 10, 2026": the visit's day as seen from `now` in Michigan. */
export function visitWhen(date: string, day: string, now: Date): string {
  const today = todayInDetroit(now);
  if (date === today) return "today";
  const tomorrow = new Date(`${today}T12:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  return date === tomorrow.toISOString().slice(0, 10) ? "tomorrow" : `on ${day}`;
}

/** "Reminder: your service visit tomorrow, Morning (8 AM to 11 AM)" (receiptSubject adds the company). */
export function serviceVisitReminderSubject(when: string, window: string): string {
  return `Reminder: your service visit ${when}, ${window}`;
}

/** The reminder as it goes to the outbox (no database: the caller writes it). */
export function reminderMail(r: ReminderFacts): OutgoingMail {
  const b = r.booking;
  const e = env();
  const when = visitWhen(r.date, r.day, r.now);
  const phone = company.phone.display;
  const change = r.changeUntil
    ? `Until ${companyClock(r.changeUntil, r.now)} you can move the visit or cancel it for a full refund from your booking's page (the link below); after that, call us at ${phone}.`
    : `Online changes to this visit have closed: to move or cancel it, call us at ${phone} with your booking reference. Your booking's page (the link below) shows what you booked.`;
  const mail: SubmissionMail = {
    title: `Your service visit is ${when}`,
    intro:
      `Hello ${b.name}. This is a reminder of your garage door service visit (booking reference ${b.reference}) ` +
      `${when.startsWith("on ") ? when : `${when}, ${r.day}`}, ${r.window}, at ${r.address}. ` +
      `Our technician arrives within that window and calls ahead when on the way. ${change}`,
    rows: [
      { label: "Booking reference", value: b.reference },
      { label: "Visit", value: `${r.day}, ${r.window}` },
      { label: "Address", value: r.address },
      { label: "Your booking's page", value: r.manageUrl },
    ],
    footer: visitorFooter(e.COMPANY_INBOX),
  };
  return {
    to: b.email,
    replyTo: e.COMPANY_INBOX,
    subject: receiptSubject(serviceVisitReminderSubject(when, r.window)),
    text: plainText(mail),
    content: mail,
    // A paid booking's own mail, like its receipt: always written (the daily cap is for confirmations).
    kind: "receipt",
    source: { table: "service_requests", id: b.id },
  };
}

/** Writes the reminder to the outbox in the caller's transaction; the caller wakes the mail worker after its commit. */
export async function enqueueReminder(tx: DbOrTx, r: ReminderFacts): Promise<void> {
  await enqueueMail(tx, reminderMail(r));
}
