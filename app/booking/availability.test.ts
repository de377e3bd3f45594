import { describe, expect, it } from "vitest";
import {
  addDays,
  allWindowsBegun,
  dayRefusal,
  dayState,
  emptyAvailability,
  openSlots,
  placesLeft,
  slotRefusal,
  slotsBegun,
  AVAILABILITY_MESSAGES,
  type Availability,
} from "./availability";

/** The calendar's questions, on a snapshot: capacity, today's begun slots (Detroit time), the horizon. */
const MORNING = "Morning (8 AM to 11 AM)";
const AFTERNOON = "Afternoon (11 AM to 2 PM)";
const LATE = "Late Afternoon (2 PM to 4 PM)";
const EVENING = "Evening (After 4 PM)";

describe("slots begun today, in Detroit time", () => {
  it("none before 8 AM; the morning from 8 AM; all four from 4 PM", () => {
    expect(slotsBegun(new Date("2026-11-24T12:59:00Z"))).toEqual([]); // 7:59 EST
    expect(slotsBegun(new Date("2026-11-24T13:00:00Z"))).toEqual([MORNING]); // 8:00 EST
    expect(slotsBegun(new Date("2026-07-14T18:30:00Z"))).toEqual([MORNING, AFTERNOON, LATE]); // 14:30 EDT
    expect(slotsBegun(new Date("2026-11-24T21:00:00Z"))).toEqual([MORNING, AFTERNOON, LATE, EVENING]); // 16:00 EST
  });
});

describe("places left", () => {
  // 25 November 2026, 9:00 EST: today's morning has begun.
  const now = new Date("2026-11-25T14:00:00Z");
  const a: Availability = { ...emptyAvailability(3, now), taken: { "2026-11-28": { [MORNING]: 3, [EVENING]: 1 } } };

  it("capacity minus what is taken; a full slot has none; other days have all", () => {
    expect(placesLeft(a, "2026-11-28", MORNING)).toBe(0);
    expect(placesLeft(a, "2026-11-28", EVENING)).toBe(2);
    expect(placesLeft(a, "2026-11-28", AFTERNOON)).toBe(3);
    expect(openSlots(a, "2026-11-28")).toEqual([AFTERNOON, LATE, EVENING]);
    expect(slotRefusal(a, "2026-11-28", MORNING)).toBe(AVAILABILITY_MESSAGES.full);
  });

  it("today: a slot that has begun is closed, later ones are open", () => {
    expect(a.from).toBe("2026-11-25");
    expect(openSlots(a, "2026-11-25")).toEqual([AFTERNOON, LATE, EVENING]);
    expect(slotRefusal(a, "2026-11-25", MORNING)).toBe(AVAILABILITY_MESSAGES.begun);
  });

  it("nothing before today or beyond the horizon", () => {
    expect(openSlots(a, "2026-11-24")).toEqual([]);
    expect(openSlots(a, a.until)).toHaveLength(4);
    expect(openSlots(a, addDays(a.until, 1))).toEqual([]);
    expect(slotRefusal(a, addDays(a.until, 1), MORNING)).toBe(AVAILABILITY_MESSAGES.horizon);
  });

  it("addDays crosses months, years and the DST change", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });
});

describe("what the calendar says of a day", () => {
  it("today after 4 PM is 'started', not 'full'; a day whose slots are all taken is 'full'; outside the range 'out'", () => {
    const evening = new Date("2026-11-24T21:30:00Z"); // 16:30 EST: every slot of the 24th has begun
    const a: Availability = {
      ...emptyAvailability(1, evening),
      taken: { "2026-11-26": { [MORNING]: 1, [AFTERNOON]: 1, [LATE]: 1, [EVENING]: 1 } },
    };
    expect(dayState(a, "2026-11-24")).toBe("started");
    expect(dayState(a, "2026-11-26")).toBe("full");
    expect(dayState(a, "2026-11-25")).toBe("open");
    expect(dayState(a, "2026-11-23")).toBe("out");
    expect(dayState(a, addDays(a.until, 1))).toBe("out");
    // At noon, the morning has begun and the rest of today is taken: that day is full.
    const noon = new Date("2026-11-24T17:00:00Z");
    const busy: Availability = {
      ...emptyAvailability(1, noon),
      taken: { "2026-11-24": { [LATE]: 1, [EVENING]: 1 } },
    };
    expect(busy.closedToday).toEqual([MORNING, AFTERNOON]);
    expect(dayState(busy, "2026-11-24")).toBe("full");
  });
});

describe("a day with no window left", () => {
  it("says why on the date: every window begun (today after 4 PM), or every window full", () => {
    const evening = new Date("2026-11-24T21:30:00Z"); // 16:30 EST
    const a: Availability = {
      ...emptyAvailability(1, evening),
      taken: { "2026-11-26": { [MORNING]: 1, [AFTERNOON]: 1, [LATE]: 1, [EVENING]: 1 } },
    };
    expect(dayRefusal(a, "2026-11-24")).toBe(AVAILABILITY_MESSAGES.dayBegun);
    expect(dayRefusal(a, "2026-11-26")).toBe(AVAILABILITY_MESSAGES.dayFull);
    expect(dayRefusal(a, "2026-11-25")).toBeNull();
    expect(AVAILABILITY_MESSAGES.dayBegun).toMatch(/^No times are left to book today/);
    expect(AVAILABILITY_MESSAGES.dayFull).toMatch(/^No times are left on this day/);
  });

  it("every window of today has begun from 4 PM in Detroit, whatever the machine's zone", () => {
    expect(allWindowsBegun("2026-11-24", new Date("2026-11-24T21:00:00Z"))).toBe(true); // 16:00 EST
    expect(allWindowsBegun("2026-11-24", new Date("2026-11-24T20:59:00Z"))).toBe(false); // 15:59 EST
    expect(allWindowsBegun("2026-11-25", new Date("2026-11-24T21:00:00Z"))).toBe(false); // tomorrow
    // 23:30 in Detroit is already the 25th in UTC: the 24th is still today there, and over.
    expect(allWindowsBegun("2026-11-24", new Date("2026-11-25T04:30:00Z"))).toBe(true);
  });
});
