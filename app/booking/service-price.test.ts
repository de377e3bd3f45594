import { describe, expect, it } from "vitest";
import { SERVICE_TIMES } from "~/forms/options";
import { dayRule, SERVICE_PRICE_MESSAGES, servicePrice } from "./service-price";

/**
 * SPEC §9 residential service price, DECISIONS 12–14: 199.00 on 1 January,
 * 4 July, 25 December or a Sunday; 159.00 on a Saturday; 159.95 for the
 * evening slot; otherwise 129.95 — first match wins. `now` is always explicit.
 */
const [MORNING, AFTERNOON, LATE_AFTERNOON, EVENING] = SERVICE_TIMES;
// Well before every date in the tables.
const EARLY = new Date("2025-12-01T12:00:00Z");

const price = (serviceDate: string, serviceTime: string, now = EARLY) =>
  servicePrice({ serviceDate, serviceTime }, now);

describe("holidays of 2026 and 2027: 199.00 whatever the weekday and the slot", () => {
  const holidays = [
    ["2026-01-01", "Thursday"],
    ["2026-07-04", "Saturday"],
    ["2026-12-25", "Friday"],
    ["2027-01-01", "Friday"],
    ["2027-07-04", "Sunday"],
    ["2027-12-25", "Saturday"],
  ] as const;
  for (const [date, weekday] of holidays) {
    it(`${date} (${weekday})`, () => {
      for (const slot of SERVICE_TIMES) {
        expect(price(date, slot)).toEqual({ ok: true, cents: 199_00, rule: "holiday" });
      }
      expect(dayRule(date)).toBe("holiday");
    });
  }

  it("the day before and after a holiday are ordinary days (no observed Friday or Monday)", () => {
    expect(price("2026-07-03", MORNING)).toMatchObject({ cents: 129_95 }); // Friday before a Saturday 4 July
    expect(price("2027-07-05", MORNING)).toMatchObject({ cents: 129_95 }); // Monday after a Sunday 4 July
    expect(price("2026-12-24", EVENING)).toMatchObject({ cents: 159_95 });
    expect(price("2026-12-26", MORNING)).toMatchObject({ cents: 159_00 }); // a Saturday
  });
});

describe("weekdays and slots", () => {
  const table: [date: string, slot: string, cents: number, rule: string][] = [
    // Sundays: 199.00, the evening too.
    ["2026-05-03", MORNING, 199_00, "sunday"],
    ["2026-05-03", EVENING, 199_00, "sunday"],
    ["2027-03-07", AFTERNOON, 199_00, "sunday"],
    // Saturdays: 159.00; the evening stays 159.00 (the Saturday rule comes first in SPEC §9).
    ["2026-05-02", MORNING, 159_00, "saturday"],
    ["2026-05-02", EVENING, 159_00, "saturday"],
    ["2027-03-06", LATE_AFTERNOON, 159_00, "saturday"],
    // An evening on a weekday: 159.95.
    ["2026-05-05", EVENING, 159_95, "evening"],
    ["2028-02-29", EVENING, 159_95, "evening"],
    // Other weekday slots: 129.95.
    ["2026-05-05", MORNING, 129_95, "standard"],
    ["2026-05-06", AFTERNOON, 129_95, "standard"],
    ["2026-05-06", LATE_AFTERNOON, 129_95, "standard"],
  ];
  for (const [date, slot, cents, rule] of table) {
    it(`${date} ${slot}: ${cents} cents (${rule})`, () => {
      expect(price(date, slot)).toEqual({ ok: true, cents, rule });
    });
  }

  it("a calendar's day price: the day's rule without a slot", () => {
    expect(dayRule("2026-05-02")).toBe("saturday");
    expect(dayRule("2026-05-03")).toBe("sunday");
    expect(dayRule("2026-05-05")).toBe("standard");
    expect(dayRule("2026-02-30")).toBeNull();
  });
});

describe("what is refused", () => {
  it("a date before today in America/Detroit", () => {
    const now = new Date("2026-05-05T15:00:00Z"); // 11:00 in Detroit on Tuesday 5 May
    expect(price("2026-05-04", MORNING, now)).toEqual({
      ok: false,
      field: "serviceDate",
      reason: "past",
      message: SERVICE_PRICE_MESSAGES.past,
    });
    expect(price("2025-07-04", MORNING, now)).toMatchObject({ ok: false, reason: "past" });
    expect(price("2026-05-05", MORNING, now)).toMatchObject({ ok: true, cents: 129_95 }); // today
  });

  it("a date picked at 23:30 Detroit time (already the next day in UTC) is still today", () => {
    // Saturday 2 May 2026, 23:30 EDT = Sunday 3 May, 03:30 UTC.
    const lateSaturday = new Date("2026-05-03T03:30:00Z");
    expect(price("2026-05-02", MORNING, lateSaturday)).toEqual({ ok: true, cents: 159_00, rule: "saturday" });
    expect(price("2026-05-01", MORNING, lateSaturday)).toMatchObject({ ok: false, reason: "past" });
    // New Year's Eve, 23:30 EST = 1 January, 04:30 UTC: the 31st is today; the 1st is the holiday.
    const newYearsEve = new Date("2027-01-01T04:30:00Z");
    expect(price("2026-12-31", EVENING, newYearsEve)).toEqual({ ok: true, cents: 159_95, rule: "evening" });
    expect(price("2027-01-01", MORNING, newYearsEve)).toEqual({ ok: true, cents: 199_00, rule: "holiday" });
    // Half an hour later it is the 1st in Detroit too: the 31st is past.
    expect(price("2026-12-31", EVENING, new Date("2027-01-01T05:00:00Z"))).toMatchObject({ ok: false, reason: "past" });
  });

  it("a text that is not a real date, and a slot that is not one of SPEC §9's", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "2026-5-5", "05/05/2026", "", "2026-05-05T10:00", "0000-01-01"]) {
      expect(price(bad, MORNING)).toMatchObject({ ok: false, field: "serviceDate", reason: "date" });
    }
    for (const bad of ["", "Evening", "evening (after 4 pm)", "Night"]) {
      expect(price("2026-05-05", bad)).toEqual({
        ok: false,
        field: "serviceTime",
        reason: "time",
        message: SERVICE_PRICE_MESSAGES.time,
      });
    }
  });

  it("the amount is integer cents, never a float", () => {
    for (const slot of SERVICE_TIMES) {
      const result = price("2026-05-05", slot);
      expect(result.ok && Number.isInteger(result.cents)).toBe(true);
    }
  });
});
