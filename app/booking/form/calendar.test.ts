import { describe, expect, it } from "vitest";
import type { Availability } from "../availability";
import {
  dayPrice,
  dayPriceLabel,
  dayPriceRange,
  formatServiceDay,
  freeSlotsText,
  placesText,
  slotName,
  slotPrice,
  slotStatus,
} from "./calendar";
import { servicePrice } from "~/booking/service-price";

const availability: Availability = {
  capacity: 3,
  from: "2026-11-27",
  until: "2027-03-27",
  closedToday: ["Morning (8 AM to 11 AM)"],
  taken: {
    "2026-11-28": { "Morning (8 AM to 11 AM)": 3, "Afternoon (11 AM to 2 PM)": 2 },
    "2026-12-01": {
      "Morning (8 AM to 11 AM)": 3,
      "Afternoon (11 AM to 2 PM)": 3,
      "Late Afternoon (2 PM to 4 PM)": 3,
      "Evening (After 4 PM)": 3,
    },
  },
};

describe("the booking calendar's words", () => {
  it("formats a Detroit calendar date without any clock's time zone", () => {
    expect(formatServiceDay("2026-11-28")).toBe("Saturday, November 28");
    expect(formatServiceDay("2027-01-01")).toBe("Friday, January 1");
    expect(formatServiceDay("2026-02-30")).toBeNull();
    expect(formatServiceDay("28/11/2026")).toBeNull();
  });

  it("prices a window by the one rule, as the server charges it, without asking the clock", () => {
    const now = new Date("2026-11-27T15:00:00Z");
    for (const [date, time] of [
      ["2026-12-01", "Morning (8 AM to 11 AM)"],
      ["2026-12-01", "Evening (After 4 PM)"],
      ["2026-11-28", "Afternoon (11 AM to 2 PM)"],
      ["2026-11-29", "Evening (After 4 PM)"],
      ["2026-12-25", "Morning (8 AM to 11 AM)"],
    ] as const) {
      const charged = servicePrice({ serviceDate: date, serviceTime: time }, now);
      expect(charged.ok && slotPrice(date, time)).toBe(charged.ok && charged.cents);
    }
    expect(slotPrice("2026-12-01", "Evening (After 4 PM)")).toBe(15995);
    expect(slotPrice("2026-02-30", "Evening (After 4 PM)")).toBeNull();
    // A day before the snapshot's first is never offered; its price is the rule's all the same.
    expect(slotPrice("2020-01-06", "Morning (8 AM to 11 AM)")).toBe(12995);
  });

  it("shows each day's lowest and highest price from the one rule: weekdays, Saturdays, Sundays and holidays", () => {
    // A weekday's evening costs more than its day windows.
    expect(dayPrice("2026-12-01")).toBe("$129.95–$159.95");
    expect(dayPriceLabel("2026-12-01")).toBe("$129.95 to $159.95");
    expect(dayPriceRange("2026-12-01")).toEqual({ low: 129_95, high: 159_95 });
    // Every window of a Saturday, a Sunday or a holiday costs the same: one price.
    expect(dayPrice("2026-11-28")).toBe("$159.00");
    expect(dayPrice("2026-11-29")).toBe("$199.00");
    expect(dayPrice("2026-12-25")).toBe("$199.00");
    expect(dayPriceLabel("2026-11-28")).toBe("$159.00");
    expect(dayPriceLabel("2026-12-25")).toBe("$199.00");
    expect(dayPrice("nope")).toBeNull();
    expect(dayPriceLabel("nope")).toBeNull();
  });

  it("prices a day by the windows it is given (the calendar gives those still open)", () => {
    expect(dayPrice("2026-12-01", ["Morning (8 AM to 11 AM)", "Afternoon (11 AM to 2 PM)"])).toBe("$129.95");
    expect(dayPrice("2026-12-01", ["Evening (After 4 PM)"])).toBe("$159.95");
    expect(dayPrice("2026-12-01", [])).toBeNull();
  });

  it("names slots and places", () => {
    expect(slotName("Late Afternoon (2 PM to 4 PM)")).toBe("Late Afternoon");
    expect(placesText(1)).toBe("1 place left");
    expect(placesText(3)).toBe("3 places left");
  });

  it("says which slots are open, full or already started today", () => {
    expect(slotStatus(availability, "2026-11-28", "Afternoon (11 AM to 2 PM)")).toEqual({
      open: true,
      text: "1 place left",
    });
    expect(slotStatus(availability, "2026-11-28", "Morning (8 AM to 11 AM)")).toEqual({ open: false, text: "Full" });
    expect(slotStatus(availability, "2026-11-27", "Morning (8 AM to 11 AM)")).toEqual({ open: false, text: "Started" });
    expect(slotStatus(availability, "2026-11-27", "Evening (After 4 PM)")).toEqual({
      open: true,
      text: "3 places left",
    });
  });

  it("lists a day's free slots, or why there are none", () => {
    expect(freeSlotsText(availability, "2026-11-28")).toBe(
      "Free on Saturday, November 28: Afternoon, Late Afternoon, Evening.",
    );
    expect(freeSlotsText(availability, "2026-12-01")).toBe("No places left on this day.");
    expect(freeSlotsText(availability, "2027-04-01")).toMatch(/^We take online bookings up to 120 days ahead/);
    expect(freeSlotsText(availability, "2026-11-20")).toBeNull();
  });
});
