import { describe, expect, it } from "vitest";
import { canChangeOnline, changeDeadline, windowStart } from "./cutoff";

const MORNING = "Morning (8 AM to 11 AM)";
const EVENING = "Evening (After 4 PM)";

describe("the change cut-off, company time", () => {
  it("a window starts at its hour in Detroit: EDT in summer (UTC−4), EST in winter (UTC−5)", () => {
    expect(windowStart("2026-07-15", MORNING).toISOString()).toBe("2026-07-15T12:00:00.000Z");
    expect(windowStart("2026-12-15", MORNING).toISOString()).toBe("2026-12-15T13:00:00.000Z");
    expect(windowStart("2026-12-15", EVENING).toISOString()).toBe("2026-12-15T21:00:00.000Z");
  });

  it("24 hours before a window just after the clocks go back (1 Nov 2026) is 9 AM EDT the day before by the wall clock, in real hours", () => {
    // Monday 2 Nov, 8 AM EST = 13:00Z; 24 real hours earlier is Sunday 1 Nov 13:00Z = 8 AM EST.
    expect(changeDeadline("2026-11-02", MORNING, 24).toISOString()).toBe("2026-11-01T13:00:00.000Z");
    // Sunday 1 Nov, 8 AM EST = 13:00Z; 24 h earlier is Saturday 31 Oct 13:00Z = 9 AM EDT.
    expect(changeDeadline("2026-11-01", MORNING, 24).toISOString()).toBe("2026-10-31T13:00:00.000Z");
  });

  it("and across the clocks going forward (14 Mar 2027): 8 AM EDT on the 14th less 24 h is 7 AM EST on the 13th", () => {
    expect(changeDeadline("2027-03-14", MORNING, 24).toISOString()).toBe("2027-03-13T12:00:00.000Z");
  });

  it("changes are taken until the deadline, not at or after it", () => {
    const deadline = changeDeadline("2026-12-15", MORNING, 24);
    expect(canChangeOnline("2026-12-15", MORNING, 24, new Date(deadline.getTime() - 1))).toBe(true);
    expect(canChangeOnline("2026-12-15", MORNING, 24, deadline)).toBe(false);
    expect(canChangeOnline("2026-12-15", MORNING, 0, new Date("2026-12-15T12:59:59Z"))).toBe(true);
  });
});
