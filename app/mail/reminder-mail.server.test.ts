import { describe, expect, it } from "vitest";
import { companyClock } from "~/lib/company-time";
import { reminderMail, visitWhen } from "./reminder-mail.server";

const DAY = "Tuesday, December 8, 2026";

describe("the reminder's words for when", () => {
  it("counts today and tomorrow on Michigan's calendar, not UTC's", () => {
    // 03:00 UTC on the 8th is 10 PM on the 7th in Detroit: the visit on the 8th is tomorrow.
    expect(visitWhen("2026-12-08", DAY, new Date("2026-12-08T03:00:00Z"))).toBe("tomorrow");
    expect(visitWhen("2026-12-08", DAY, new Date("2026-12-08T06:00:00Z"))).toBe("today");
    expect(visitWhen("2026-12-08", DAY, new Date("2026-12-06T15:00:00Z"))).toBe(`on ${DAY}`);
  });

  it("says a cut-off as the company's clock shows it", () => {
    const now = new Date("2026-12-06T15:00:00Z");
    expect(companyClock(new Date("2026-12-07T13:00:00Z"), now)).toBe("8 AM on Monday, December 7");
    expect(companyClock(new Date("2026-12-06T21:30:00Z"), now)).toBe("4:30 PM today");
  });
});

describe("the reminder mail", () => {
  const facts = {
    booking: {
      id: 41,
      reference: "DV-7K3M-Q9",
      name: "Grace Hopper",
      email: "grace@example.com",
      visit: `${DAY}, Morning (8 AM to 11 AM)`,
      rows: [],
      invite: {
        uid: "service-visit-41@example.com",
        title: "Dover Doors & Windows service visit",
        description: "",
        location: "12 Elm St, Flint, MI 48503",
        date: "2026-12-08",
        startHour: 8,
        startMinute: 0,
        durationMinutes: 180,
      },
      sequence: 1,
      deadline: new Date("2026-12-07T13:00:00Z"),
      policy: { next: "We call the morning of the visit.", changing: "Change or cancel online until the day before." },
    },
    date: "2026-12-08",
    day: DAY,
    window: "Morning (8 AM to 11 AM)",
    address: "12 Elm St, Flint, MI 48503",
    manageUrl: "https://dover.example.com/booking/abc",
    changeUntil: null,
    now: new Date("2026-12-07T13:00:05Z"),
  };

  it("leads with the reference, the day and window, the address; then what happens and the link; no row id", () => {
    const mail = reminderMail(facts);
    expect(mail.to).toBe("grace@example.com");
    expect(mail.subject).toBe("Reminder: your service visit tomorrow, Morning (8 AM to 11 AM) — Dover Doors & Windows");
    expect(mail.text).toContain(
      `Hello Grace Hopper. This is a reminder of your garage door service visit (booking reference DV-7K3M-Q9) tomorrow, ${DAY}, Morning (8 AM to 11 AM), at 12 Elm St, Flint, MI 48503.`,
    );
    expect(mail.text).toContain("https://dover.example.com/booking/abc");
    expect(mail.text).toContain("call us at (810) 555-0100");
    expect(mail.text).not.toContain("41");
  });

  it("before the cut-off, offers the change online until then", () => {
    const mail = reminderMail({
      ...facts,
      changeUntil: new Date("2026-12-07T21:00:00Z"),
      now: new Date("2026-12-07T13:00:05Z"),
    });
    expect(mail.text).toContain("Until 4 PM today you can move the visit or cancel it for a full refund");
  });
});
