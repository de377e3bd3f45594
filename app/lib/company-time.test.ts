import { describe, expect, it } from "vitest";
import { todayInDetroit, yearInDetroit } from "./company-time";

describe("company time (America/Detroit)", () => {
  it("is still the old day and year in Michigan during the first UTC hours", () => {
    const newYearUtc = new Date("2027-01-01T03:30:00Z"); // 22:30 on 31 December in Detroit
    expect(todayInDetroit(newYearUtc)).toBe("2026-12-31");
    expect(yearInDetroit(newYearUtc)).toBe(2026);
  });

  it("turns over at local midnight, daylight saving time included", () => {
    expect(yearInDetroit(new Date("2027-01-01T05:00:00Z"))).toBe(2027); // EST, UTC-5
    expect(todayInDetroit(new Date("2026-07-04T03:59:00Z"))).toBe("2026-07-03"); // EDT, UTC-4
    expect(todayInDetroit(new Date("2026-07-04T04:00:00Z"))).toBe("2026-07-04");
  });
});
