import { describe, expect, it } from "vitest";
import { calendarInvite } from "~/mail/calendar.server";
import { bookingInvite, bookingInviteUid, minutesFromEveningBefore } from "./invitation.server";

/**
 * A booking's calendar invitation, built in one place for the receipt, a move and a cancellation
 * (issue 38 item 2): the booking's UID, its page as URL and in the description, the reference, the
 * address as LOCATION, and a reminder at 6 PM the evening before, in Michigan time.
 */
const visit = {
  id: 41,
  reference: "DV-7K3M-Q9",
  serviceDate: "2026-12-08",
  serviceTime: "Morning (8 AM to 11 AM)",
  address: "12 Elm St, Flint, MI 48503",
  manageUrl: "https://dover.example.com/booking/abc",
} as const;

describe("bookingInvite", () => {
  it("the booking's UID, its page, reference, address and phone, and the window", async () => {
    const invite = bookingInvite(visit, { cutoffHours: 24 });
    expect(invite).toMatchObject({
      uid: "service-visit-41@example.com",
      title: "Dover Doors & Windows service visit",
      location: "12 Elm St, Flint, MI 48503",
      url: "https://dover.example.com/booking/abc",
      sequence: 0,
      date: "2026-12-08",
      startHour: 8,
      startMinute: 0,
      durationMinutes: 180,
    });
    expect(invite.uid).toBe(bookingInviteUid(41));
    expect(invite.description.split("\n")).toEqual([
      "Garage door service visit, Morning (8 AM to 11 AM). Our technician arrives within the window and calls ahead when on the way.",
      "Booking reference: DV-7K3M-Q9",
      "Your booking's page: https://dover.example.com/booking/abc",
      "Questions: call us at (810) 555-0100.",
    ]);
  });

  it("an update opens with what changed and carries its SEQUENCE; without the token, no page", async () => {
    const { manageUrl: _, ...noLink } = visit;
    const invite = bookingInvite(noLink, { lead: "Cancelled.", sequence: 2, cutoffHours: 24 });
    expect(invite.sequence).toBe(2);
    expect(invite.url).toBeUndefined();
    expect(invite.description).toBe("Cancelled.\nBooking reference: DV-7K3M-Q9\nQuestions: call us at (810) 555-0100.");
  });

  it("reminds while online changes are open (6 PM the evening before they close, with the link), then the evening before: call", async () => {
    expect(bookingInvite(visit, { cutoffHours: 24 }).alarms).toEqual([
      {
        // 6 PM on Sunday: changes close at 8 AM on Monday, 24 hours before Tuesday's morning.
        minutesBefore: 38 * 60,
        description:
          "Dover Doors & Windows service visit, Morning (8 AM to 11 AM), on Tuesday, December 8, 2026. You can still move or cancel it online until 8 AM on Monday, December 7, on your booking's page: https://dover.example.com/booking/abc. After that, call us at (810) 555-0100.",
      },
      {
        minutesBefore: 14 * 60,
        description:
          "Tomorrow: Dover Doors & Windows service visit, Morning (8 AM to 11 AM). Booking reference DV-7K3M-Q9. Online changes have closed: to change it, call us at (810) 555-0100.",
      },
    ]);
    expect(minutesFromEveningBefore("2026-12-08", "Evening (After 4 PM)")).toBe(22 * 60);
    expect(minutesFromEveningBefore("2026-12-08", "Afternoon (11 AM to 2 PM)")).toBe(17 * 60);
    const ics = await calendarInvite(bookingInvite(visit, { cutoffHours: 24 }));
    expect(ics).toContain("TRIGGER:-PT38H\r\n");
    expect(ics).toContain("TRIGGER:-PT14H\r\n");
  });

  it("a cut-off of a few hours: one reminder the evening before, saying changes are still open", () => {
    const evening = { ...visit, serviceTime: "Evening (After 4 PM)" } as const;
    expect(bookingInvite(evening, { cutoffHours: 6 }).alarms).toEqual([
      {
        minutesBefore: 22 * 60,
        description:
          "Tomorrow: Dover Doors & Windows service visit, Evening (After 4 PM). Booking reference DV-7K3M-Q9. You can still move or cancel it online until 10 AM on Tuesday, December 8, on your booking's page: https://dover.example.com/booking/abc.",
      },
    ]);
  });

  it("counts real time over a night the clocks change: 6 PM on Saturday to 8 AM on Sunday is 15 hours in the fall, 13 in the spring", async () => {
    expect(minutesFromEveningBefore("2026-11-01", "Morning (8 AM to 11 AM)")).toBe(15 * 60);
    expect(minutesFromEveningBefore("2027-03-14", "Morning (8 AM to 11 AM)")).toBe(13 * 60);
  });
});
