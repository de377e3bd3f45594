import { describe, expect, it } from "vitest";
import {
  calendarAttachment,
  calendarCancelAttachment,
  calendarInvite,
  detroitWallClockToUtc,
  type CalendarInvite,
} from "./calendar.server";

/**
 * The booking's invitation (issue 16 item 4): Detroit wall-clock slots land
 * on the right UTC instant in winter (EST, UTC-5) and summer (EDT, UTC-4),
 * and the text is an RFC 5545 calendar a mail client can read.
 */
const visit: CalendarInvite = {
  uid: "service-request-42",
  title: "Dover service visit: Morning (8 AM - 12 PM)",
  description: "Garage door service, Saturday 9 January 2027.\nThe door sticks; call first, please.",
  location: "12 Main St, Apt 3, Flint, MI 48502",
  date: "2027-01-09",
  startHour: 8,
  startMinute: 0,
  durationMinutes: 240,
};

/** The property lines of an .ics text, unfolded (RFC 5545 §3.1: CRLF followed by a space or tab continues a line). */
function lines(ics: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter(Boolean);
}

function property(ics: string, name: string): string | undefined {
  return lines(ics).find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));
}

describe("detroitWallClockToUtc", () => {
  it("EST in winter, EDT in summer, and on both sides of the 2026 changes (8 March, 1 November)", async () => {
    expect(new Date(detroitWallClockToUtc("2027-01-09", 8, 0)).toISOString()).toBe("2027-01-09T13:00:00.000Z");
    expect(new Date(detroitWallClockToUtc("2026-07-04", 16, 30)).toISOString()).toBe("2026-07-04T20:30:00.000Z");
    expect(new Date(detroitWallClockToUtc("2026-03-07", 12, 0)).toISOString()).toBe("2026-03-07T17:00:00.000Z");
    expect(new Date(detroitWallClockToUtc("2026-03-08", 12, 0)).toISOString()).toBe("2026-03-08T16:00:00.000Z");
    expect(new Date(detroitWallClockToUtc("2026-10-31", 23, 30)).toISOString()).toBe("2026-11-01T03:30:00.000Z");
    expect(new Date(detroitWallClockToUtc("2026-11-01", 8, 0)).toISOString()).toBe("2026-11-01T13:00:00.000Z");
  });
});

describe("calendarInvite", () => {
  it("a winter slot: 8 AM EST is 13:00 UTC, four hours long", async () => {
    const ics = await calendarInvite(visit);
    expect(property(ics, "DTSTART")).toBe("DTSTART:20270109T130000Z");
    expect(property(ics, "DTEND")).toBe("DTEND:20270109T170000Z");
  });

  it("a summer slot: 4:30 PM EDT is 20:30 UTC", async () => {
    const ics = await calendarInvite({
      ...visit,
      date: "2026-07-15",
      startHour: 16,
      startMinute: 30,
      durationMinutes: 90,
    });
    expect(property(ics, "DTSTART")).toBe("DTSTART:20260715T203000Z");
    expect(property(ics, "DTEND")).toBe("DTEND:20260715T220000Z");
  });

  it("is an RFC 5545 REQUEST: one event, escaped text, the company as organizer, the visitor as an attendee who already accepted", async () => {
    const ics = await calendarInvite(visit, { name: 'Jane "JD" Doe', email: "jane@example.com" });
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.split("\r\n").every((line) => line.length <= 75)).toBe(true);
    const all = lines(ics);
    expect(all[0]).toBe("BEGIN:VCALENDAR");
    expect(all.at(-1)).toBe("END:VCALENDAR");
    expect(all).toContain("VERSION:2.0");
    expect(all).toContain("METHOD:REQUEST");
    expect(all.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
    expect(all).toContain("END:VEVENT");
    expect(all).toContain("UID:service-request-42@example.com");
    expect(all).toContain("SEQUENCE:0");
    expect(all).toContain("STATUS:CONFIRMED");
    expect(all).toContain("SUMMARY:Dover service visit: Morning (8 AM - 12 PM)");
    expect(all).toContain("LOCATION:12 Main St\\, Apt 3\\, Flint\\, MI 48502");
    expect(all).toContain(
      "DESCRIPTION:Garage door service\\, Saturday 9 January 2027.\\nThe door sticks\\; call first\\, please.",
    );
    expect(all).toContain('ORGANIZER;CN="Dover Doors & Windows":MAILTO:info@example.com');
    // A double quote cannot be escaped in a parameter value: the name keeps a single one.
    expect(property(ics, "ATTENDEE")).toBe(
      'ATTENDEE;RSVP=FALSE;ROLE="REQ-PARTICIPANT";PARTSTAT="ACCEPTED";CN="Jane \'JD\' Doe":mailto:jane@example.com',
    );
    expect(property(ics, "DTSTAMP")).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
  });

  it("keeps the caller's UID when it is already global, and is the same event each time it is built", async () => {
    const a = await calendarInvite({ ...visit, uid: "booking-7@dover.example.com" });
    const b = await calendarInvite({ ...visit, uid: "booking-7@dover.example.com" });
    expect(property(a, "UID")).toBe("UID:booking-7@dover.example.com");
    const withoutStamp = (ics: string) => lines(ics).filter((line) => !line.startsWith("DTSTAMP"));
    expect(withoutStamp(a)).toEqual(withoutStamp(b));
  });

  it("as an attachment: service-visit.ics, a text/calendar REQUEST", async () => {
    const attachment = await calendarAttachment(visit, { name: "Jane Doe", email: "jane@example.com" });
    expect(attachment).toMatchObject({
      filename: "service-visit.ics",
      contentType: "text/calendar; charset=utf-8; method=REQUEST",
    });
    expect(attachment.content).toContain("ATTENDEE;");
  });

  it("an update of a moved visit: a REQUEST with the same UID, the next SEQUENCE and the new window in Detroit time", async () => {
    const first = await calendarAttachment(visit, { name: "Jane Doe", email: "jane@example.com" });
    // Moved from a January Saturday morning (EST) to a July afternoon (EDT): 1 PM in Detroit is 17:00 UTC.
    const moved = await calendarAttachment(
      { ...visit, date: "2027-07-10", startHour: 13, durationMinutes: 180 },
      { name: "Jane Doe", email: "jane@example.com" },
      { sequence: 2 },
    );
    expect(moved.contentType).toBe("text/calendar; charset=utf-8; method=REQUEST");
    const all = lines(moved.content);
    expect(all).toContain("METHOD:REQUEST");
    expect(all).toContain("STATUS:CONFIRMED");
    expect(all).toContain("SEQUENCE:2");
    expect(property(moved.content, "UID")).toBe(property(first.content, "UID"));
    expect(property(first.content, "SEQUENCE")).toBe("SEQUENCE:0");
    expect(property(moved.content, "DTSTART")).toBe("DTSTART:20270710T170000Z");
    expect(property(moved.content, "DTEND")).toBe("DTEND:20270710T200000Z");
  });

  it("the event's page as URL and each display alarm before the start; a withdrawal keeps the URL and drops the alarms", async () => {
    const linked = {
      ...visit,
      url: "https://dover.example.com/booking/abc",
      alarms: [
        { minutesBefore: 38 * 60, description: "Changes close tomorrow." },
        { minutesBefore: 14 * 60 + 30, description: "Tomorrow: your service visit." },
      ],
    };
    const ics = await calendarInvite(linked);
    const all = lines(ics);
    expect(all).toContain("URL:https://dover.example.com/booking/abc");
    const first = all.slice(all.indexOf("BEGIN:VALARM"), all.indexOf("END:VALARM") + 1);
    expect(first).toEqual(
      expect.arrayContaining(["ACTION:DISPLAY", "DESCRIPTION:Changes close tomorrow.", "TRIGGER:-PT38H"]),
    );
    const second = all.slice(all.lastIndexOf("BEGIN:VALARM"), all.lastIndexOf("END:VALARM") + 1);
    expect(second).toEqual(
      expect.arrayContaining(["ACTION:DISPLAY", "DESCRIPTION:Tomorrow: your service visit.", "TRIGGER:-PT14H30M"]),
    );
    // Inside the event, after the event's own description.
    expect(all.indexOf("BEGIN:VALARM")).toBeGreaterThan(all.indexOf("BEGIN:VEVENT"));
    expect(all.indexOf("END:VALARM")).toBeLessThan(all.indexOf("END:VEVENT"));
    const cancel = (await calendarCancelAttachment(linked, { name: "Jane Doe", email: "jane@example.com" }, 1)).content;
    expect(lines(cancel)).toContain("URL:https://dover.example.com/booking/abc");
    expect(cancel).not.toContain("BEGIN:VALARM");
  });

  it("the invite's own SEQUENCE when the caller gives none", async () => {
    expect(property(await calendarInvite({ ...visit, sequence: 4 }), "SEQUENCE")).toBe("SEQUENCE:4");
    expect(property((await calendarAttachment({ ...visit, sequence: 4 })).content, "SEQUENCE")).toBe("SEQUENCE:4");
    expect(
      property((await calendarAttachment({ ...visit, sequence: 4 }, undefined, { sequence: 5 })).content, "SEQUENCE"),
    ).toBe("SEQUENCE:5");
  });

  it("a withdrawal: METHOD:CANCEL, STATUS:CANCELLED, the same UID, its SEQUENCE", async () => {
    const cancel = await calendarCancelAttachment(visit, { name: "Jane Doe", email: "jane@example.com" }, 3);
    expect(cancel.contentType).toBe("text/calendar; charset=utf-8; method=CANCEL");
    const all = lines(cancel.content);
    expect(all).toEqual(expect.arrayContaining(["METHOD:CANCEL", "STATUS:CANCELLED", "SEQUENCE:3"]));
    expect(property(cancel.content, "UID")).toBe("UID:service-request-42@example.com");
  });
});
