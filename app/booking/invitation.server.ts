import { company } from "~/lib/company";
import { addDays, SLOT_LENGTH_MINUTES, SLOT_START_HOUR } from "~/booking/availability";
import type { CalendarAlarm, CalendarInvite } from "~/mail/calendar.server";
import { companyClock, todayInDetroit } from "~/lib/company-time";
import { serviceVisitEventTitle } from "~/mail/subjects";
import type { ServiceTime } from "~/booking/service-price";
import { changeDeadline, detroitInstant, windowStart } from "./cutoff";
import { visitDay } from "./visit-day";

/**
 * The calendar invitation of a booked visit, the one place it is built (DECISIONS 37, issue 38
 * item 2, docs/decisions/071-reminders-and-invitation.md): for the receipt, a move and a
 * cancellation alike. Its UID is the booking's, the same in every invitation of it, so a move
 * (METHOD:REQUEST) replaces the event and a cancellation (METHOD:CANCEL) removes it; its SEQUENCE
 * is the number of updates sent before (0 for the first). It carries what a visitor looks for in
 * a calendar a month later: the booking's page (URL, and in the description, where every calendar
 * shows it), the reference, the address (LOCATION), the phone, and its reminders (`visitAlarms`).
 */
export type InvitedVisit = {
  /** The booking's row id: its UID. */
  id: number;
  reference: string;
  serviceDate: string;
  serviceTime: ServiceTime;
  /** The service address on one line. */
  address: string;
  /** The booking's page (SITE_URL + /booking/{token}), when the caller holds the token. */
  manageUrl?: string;
};

/** The hour of an evening at which the calendar reminds of a visit (6 PM, Michigan time). */
export const ALARM_EVENING_HOUR = 18;

/** The company's mail domain: a UID is made globally unique with it (RFC 5545 §3.8.4.7). */
const uidDomain = company.email.split("@")[1]!;

/** The calendar invitation's UID of a booking: the same for its first invitation and every update. */
export const bookingInviteUid = (id: number) => `service-visit-${id}@${uidDomain}`;

/** Minutes from 6 PM on the evening before a visit to its window's start, in real time (a DST night included). */
export function minutesFromEveningBefore(serviceDate: string, time: ServiceTime): number {
  return minutesBefore(serviceDate, time, detroitInstant(addDays(serviceDate, -1), ALARM_EVENING_HOUR));
}

function minutesBefore(serviceDate: string, time: ServiceTime, at: Date): number {
  return Math.round((windowStart(serviceDate, time).getTime() - at.getTime()) / 60_000);
}

/**
 * The calendar's two reminders (issue 45 item 8): one at 6 PM on the evening before online changes
 * close, while the visit can still be moved or cancelled from its page (with the link); and one at
 * 6 PM the evening before the visit, which says whether online changes are still open or to call.
 */
export function visitAlarms(
  visit: Pick<InvitedVisit, "reference" | "serviceDate" | "serviceTime" | "manageUrl">,
  cutoffHours: number,
): CalendarAlarm[] {
  const deadline = changeDeadline(visit.serviceDate, visit.serviceTime, cutoffHours);
  const beforeDeadline = detroitInstant(addDays(todayInDetroit(deadline), -1), ALARM_EVENING_HOUR);
  const eveningBefore = detroitInstant(addDays(visit.serviceDate, -1), ALARM_EVENING_HOUR);
  const event = `${serviceVisitEventTitle()}, ${visit.serviceTime}`;
  const where = visit.manageUrl ? `on your booking's page: ${visit.manageUrl}` : "on your booking's page";
  const call = `call us at ${company.phone.display}`;
  const changes = {
    minutesBefore: minutesBefore(visit.serviceDate, visit.serviceTime, beforeDeadline),
    description: `${event}, on ${visitDay(visit.serviceDate)}. You can still move or cancel it online until ${companyClock(deadline)}, ${where}. After that, ${call}.`,
  };
  const tomorrow = {
    minutesBefore: minutesBefore(visit.serviceDate, visit.serviceTime, eveningBefore),
    description: `Tomorrow: ${event}. Booking reference ${visit.reference}. ${
      eveningBefore.getTime() < deadline.getTime()
        ? `You can still move or cancel it online until ${companyClock(deadline)}, ${where}.`
        : `Online changes have closed: to change it, ${call}.`
    }`,
  };
  // One reminder when both fall on the same evening (a cut-off of a few hours).
  return changes.minutesBefore > tomorrow.minutesBefore ? [changes, tomorrow] : [tomorrow];
}

/**
 * The invitation of a visit as it now stands. `lead` opens the description (what the event is, or
 * what changed: "Cancelled.", "Moved from …"); the reference, the page and the phone follow.
 */
export function bookingInvite(
  visit: InvitedVisit,
  { lead, sequence = 0, cutoffHours }: { lead?: string; sequence?: number; cutoffHours: number },
): CalendarInvite {
  const description = [
    lead ??
      `Garage door service visit, ${visit.serviceTime}. Our technician arrives within the window and calls ahead when on the way.`,
    `Booking reference: ${visit.reference}`,
    visit.manageUrl ? `Your booking's page: ${visit.manageUrl}` : null,
    `Questions: call us at ${company.phone.display}.`,
  ]
    .filter(Boolean)
    .join("\n");
  return {
    uid: bookingInviteUid(visit.id),
    title: serviceVisitEventTitle(),
    description,
    location: visit.address,
    ...(visit.manageUrl ? { url: visit.manageUrl } : {}),
    alarms: visitAlarms(visit, cutoffHours),
    sequence,
    date: visit.serviceDate,
    startHour: SLOT_START_HOUR[visit.serviceTime],
    startMinute: 0,
    durationMinutes: SLOT_LENGTH_MINUTES[visit.serviceTime],
  };
}
