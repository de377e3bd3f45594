import { company } from "~/lib/company";
import { addDays, SLOT_LENGTH_MINUTES, SLOT_START_HOUR } from "~/booking/availability";
import type { CalendarInvite } from "~/mail/calendar.server";
import { serviceVisitEventTitle } from "~/mail/subjects";
import type { ServiceTime } from "~/booking/service-price";
import { detroitInstant, windowStart } from "./cutoff";

/**
 * The calendar invitation of a booked visit, the one place it is built (DECISIONS 37, issue 38
 * item 2, docs/decisions/071-reminders-and-invitation.md): for the receipt, a move and a
 * cancellation alike. Its UID is the booking's, the same in every invitation of it, so a move
 * (METHOD:REQUEST) replaces the event and a cancellation (METHOD:CANCEL) removes it; its SEQUENCE
 * is the number of updates sent before (0 for the first). It carries what a visitor looks for in
 * a calendar a month later: the booking's page (URL, and in the description, where every calendar
 * shows it), the reference, the address (LOCATION), the phone, and a reminder the evening before.
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

/** The hour of the evening before a visit at which the calendar reminds of it (6 PM, Michigan time). */
export const ALARM_EVENING_HOUR = 18;

/** The company's mail domain: a UID is made globally unique with it (RFC 5545 §3.8.4.7). */
const uidDomain = company.email.split("@")[1]!;

/** The calendar invitation's UID of a booking: the same for its first invitation and every update. */
export const bookingInviteUid = (id: number) => `service-visit-${id}@${uidDomain}`;

/** Minutes from 6 PM on the evening before a visit to its window's start, in real time (a DST night included). */
export function minutesFromEveningBefore(serviceDate: string, time: ServiceTime): number {
  const evening = detroitInstant(addDays(serviceDate, -1), ALARM_EVENING_HOUR);
  return Math.round((windowStart(serviceDate, time).getTime() - evening.getTime()) / 60_000);
}

/**
 * The invitation of a visit as it now stands. `lead` opens the description (what the event is, or
 * what changed: "Cancelled.", "Moved from …"); the reference, the page and the phone follow.
 */
export function bookingInvite(
  visit: InvitedVisit,
  { lead, sequence = 0 }: { lead?: string; sequence?: number } = {},
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
    alarm: {
      minutesBefore: minutesFromEveningBefore(visit.serviceDate, visit.serviceTime),
      description: `Tomorrow: ${serviceVisitEventTitle()}, ${visit.serviceTime}. Booking reference ${visit.reference}.`,
    },
    sequence,
    date: visit.serviceDate,
    startHour: SLOT_START_HOUR[visit.serviceTime],
    startMinute: 0,
    durationMinutes: SLOT_LENGTH_MINUTES[visit.serviceTime],
  };
}
