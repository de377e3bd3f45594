import { describe, expect, it } from "vitest";
import { priceChange } from "./price-change";

const MORNING = "Morning (8 AM to 11 AM)";
const EVENING = "Evening (After 4 PM)";
// A Wednesday in the company's time zone, well before every date used here.
const NOW = new Date("2026-12-02T15:00:00Z");

describe("the price of moving a visit", () => {
  it("a weekday morning (129.95) to a Saturday (159.00) is dearer by 29.05", () => {
    const change = priceChange(129_95, { serviceDate: "2026-12-05", serviceTime: MORNING }, NOW);
    expect(change).toMatchObject({ ok: true, direction: "dearer", newCents: 159_00, diffCents: 29_05 });
  });

  it("a Sunday (199.00) to a weekday evening (159.95) is cheaper by 39.05", () => {
    const change = priceChange(199_00, { serviceDate: "2026-12-09", serviceTime: EVENING }, NOW);
    expect(change).toMatchObject({ ok: true, direction: "cheaper", newCents: 159_95, diffCents: -39_05 });
  });

  it("a weekday morning to another weekday's afternoon costs the same", () => {
    const change = priceChange(129_95, { serviceDate: "2026-12-10", serviceTime: "Afternoon (11 AM to 2 PM)" }, NOW);
    expect(change).toMatchObject({ ok: true, direction: "same", diffCents: 0 });
  });

  it("Christmas Day is priced as a holiday (199.00) whatever its weekday: dearer than a Saturday", () => {
    expect(priceChange(159_00, { serviceDate: "2026-12-25", serviceTime: MORNING }, NOW)).toMatchObject({
      direction: "dearer",
      diffCents: 40_00,
    });
  });

  it("refuses a past date and a time that is not one of the windows, as the booking does", () => {
    expect(priceChange(129_95, { serviceDate: "2026-12-01", serviceTime: MORNING }, NOW)).toMatchObject({
      ok: false,
      field: "serviceDate",
    });
    expect(priceChange(129_95, { serviceDate: "2026-12-10", serviceTime: "Midnight" }, NOW)).toMatchObject({
      ok: false,
      field: "serviceTime",
    });
  });
});
