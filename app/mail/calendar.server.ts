import type { EventAttributes, ReturnObject } from "ics";
import type { MailAttachment } from "@db/schema";
import { company } from "~/lib/company";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";

/**
 * The calendar invitation a residential service booking's visitor e-mail
 * carries (issue 16 item 4), built with the `ics` package.
 *
 * The slot is a Detroit wall-clock time; `ics` knows no time zones (no
 * VTIMEZONE, no TZID) and its "local" input is the server's zone (UTC on
 * fly.io), so the wall-clock time is turned into its UTC instant here (the
 * offset Intl gives for that date: EST or EDT) and written in UTC
 * (DTSTART:…Z). A calendar in any zone then shows the right moment.
 */
/** A reminder the calendar shows (VALARM, ACTION:DISPLAY) this long before the start. */
export type CalendarAlarm = { minutesBefore: number; description: string };

export type CalendarInvite = {
  /** Stable and unique to the booking (e.g. `service-request-42`): a later update with the same UID replaces the event. */
  uid: string;
  title: string;
  description: string;
  location: string;
  /** The event's own page (URL): the booking's page. */
  url?: string;
  /** Reminders the calendar shows (VALARM, ACTION:DISPLAY), each this long before the start. */
  alarms?: CalendarAlarm[];
  /** The invitation's SEQUENCE when the caller does not give one: 0 first, one higher per update sent. */
  sequence?: number;
  /** The day in Detroit, YYYY-MM-DD. */
  date: string;
  /** Detroit wall-clock start. */
  startHour: number;
  startMinute: number;
  durationMinutes: number;
};

/** The person the invitation is for (the visitor): METHOD:REQUEST names its attendee. */
export type CalendarAttendee = { name: string; email: string };

/** The invitation's iTIP method: a REQUEST is what mail clients show as an invitation to add (RFC 5546). */
export const INVITE_METHOD = "REQUEST";

/** Content type of the stored attachment; the mail transport sends it as the message's calendar part. */
export const INVITE_CONTENT_TYPE = `text/calendar; charset=utf-8; method=${INVITE_METHOD}`;

const offsetParts = new Intl.DateTimeFormat("en-US", {
  timeZone: COMPANY_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** Detroit's offset from UTC at an instant, in ms (-5 h in winter, -4 h in summer). */
function detroitOffsetMs(instant: number): number {
  const part = Object.fromEntries(offsetParts.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  const asUtc = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return asUtc - (instant - (instant % 1000));
}

/** The UTC instant (ms) of a Detroit wall-clock time. */
export function detroitWallClockToUtc(date: string, hour: number, minute: number): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset at the first guess can be the other side of a DST change; the second look settles it.
  const first = wall - detroitOffsetMs(wall);
  return wall - detroitOffsetMs(first);
}

/** A name as an iCalendar parameter value: no double quotes or control characters (RFC 5545 §3.1 has no escape for them). */
function paramText(name: string): string {
  return name
    .replace(/"/g, "'")
    .replace(/[\p{Cc}]/gu, " ")
    .trim();
}

/** The company's mail domain: a UID is made globally unique with it (RFC 5545 §3.8.4.7). */
const uidDomain = company.email.split("@")[1]!;

/**
 * ics (with yup, which it validates with: ~100 KB of code that builds its schemas when it loads)
 * loads with the first invitation, not with the server (issue 39).
 */
let ics: Promise<(attributes: EventAttributes) => ReturnObject> | undefined;
function loadCreateEvent(): Promise<(attributes: EventAttributes) => ReturnObject> {
  ics ??= import("ics").then((module) => module.createEvent);
  return ics;
}

/** The .ics text (RFC 5545) of a booking's invitation, organized by the company; `cancel` withdraws it (same UID, a higher SEQUENCE). */
export async function calendarInvite(
  invite: CalendarInvite,
  attendee?: CalendarAttendee,
  { cancel = false, sequence = invite.sequence ?? 0 }: { cancel?: boolean; sequence?: number } = {},
): Promise<string> {
  const createEvent = await loadCreateEvent();
  const start = detroitWallClockToUtc(invite.date, invite.startHour, invite.startMinute);
  const { error, value } = createEvent({
    productId: `-//${company.name}//Service booking//EN`,
    method: cancel ? "CANCEL" : INVITE_METHOD,
    uid: invite.uid.includes("@") ? invite.uid : `${invite.uid}@${uidDomain}`,
    sequence,
    title: invite.title,
    description: invite.description,
    location: invite.location,
    ...(invite.url ? { url: invite.url } : {}),
    // A withdrawn event reminds of nothing.
    ...(invite.alarms?.length && !cancel
      ? {
          alarms: invite.alarms.map((alarm) => ({
            action: "display" as const,
            description: alarm.description,
            trigger: {
              before: true,
              hours: Math.floor(alarm.minutesBefore / 60),
              minutes: alarm.minutesBefore % 60,
            },
          })),
        }
      : {}),
    start,
    startInputType: "utc",
    startOutputType: "utc",
    end: start + invite.durationMinutes * 60_000,
    endInputType: "utc",
    endOutputType: "utc",
    status: cancel ? "CANCELLED" : "CONFIRMED",
    busyStatus: "BUSY",
    organizer: { name: company.name, email: company.email },
    // The visitor booked (and paid for) the slot: already accepted, no reply asked for.
    attendees: attendee
      ? [
          {
            name: paramText(attendee.name),
            email: attendee.email,
            rsvp: false,
            partstat: "ACCEPTED",
            role: "REQ-PARTICIPANT",
          },
        ]
      : undefined,
  });
  if (error || !value) throw error ?? new Error("ics: no calendar produced");
  return value;
}

/** The withdrawal of a booking's invitation (METHOD:CANCEL, the same UID), as an outbox attachment. */
export async function calendarCancelAttachment(
  invite: CalendarInvite,
  attendee: CalendarAttendee,
  sequence: number,
): Promise<MailAttachment> {
  return {
    filename: "service-visit.ics",
    contentType: "text/calendar; charset=utf-8; method=CANCEL",
    content: await calendarInvite(invite, attendee, { cancel: true, sequence }),
  };
}

/**
 * The invitation as an outbox attachment (`service-visit.ics`). The first one is SEQUENCE 0; an
 * update of the same visit (moved to another window) is sent with the same UID and the next
 * SEQUENCE, which a calendar takes as replacing the event it has (RFC 5546 §2.1.4).
 */
export async function calendarAttachment(
  invite: CalendarInvite,
  attendee?: CalendarAttendee,
  { sequence = invite.sequence ?? 0 }: { sequence?: number } = {},
): Promise<MailAttachment> {
  return {
    filename: "service-visit.ics",
    contentType: INVITE_CONTENT_TYPE,
    content: await calendarInvite(invite, attendee, { sequence }),
  };
}
