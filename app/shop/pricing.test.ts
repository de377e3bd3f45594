import { describe, expect, it } from "vitest";
import { lineTotalCents, optionCents, priceWithOptions, unitsAndPrice } from "./pricing";

const opener = {
  priceCents: 549_00,
  customFields: [
    {
      name: "Horsepower",
      options: [
        { label: "1/2 HP", price: 0 },
        { label: "3/4 HP", price: 60 },
      ],
    },
    {
      name: "Wi-Fi Module",
      options: [
        { label: "None", price: 0 },
        { label: "Smartphone control", price: 45.1 },
      ],
    },
  ],
};

describe("price with options", () => {
  it("a field without a choice takes its first option", () => {
    expect(priceWithOptions(opener, undefined)).toEqual({
      ok: true,
      cents: 549_00,
      options: [
        { name: "Horsepower", label: "1/2 HP", priceCents: 0 },
        { name: "Wi-Fi Module", label: "None", priceCents: 0 },
      ],
    });
  });

  it("base plus every chosen option, in whole cents", () => {
    const price = priceWithOptions(opener, { Horsepower: "3/4 HP", "Wi-Fi Module": "Smartphone control" });
    expect(price).toMatchObject({ ok: true, cents: 549_00 + 60_00 + 45_10 });
  });

  it("refuses a label the field does not list and a field the product does not have", () => {
    expect(priceWithOptions(opener, { Horsepower: "5 HP" })).toMatchObject({ ok: false, field: "Horsepower" });
    expect(priceWithOptions(opener, { Colour: "Red" })).toMatchObject({ ok: false, field: "Colour" });
    expect(priceWithOptions({ priceCents: 39_00, customFields: [] }, {})).toEqual({
      ok: true,
      cents: 39_00,
      options: [],
    });
  });

  it("option dollars to cents without float drift", () => {
    expect(optionCents(0.1)).toBe(10);
    expect(optionCents(19.99)).toBe(19_99);
    expect(optionCents(1.005)).toBeNull();
    expect(optionCents(-5)).toBeNull();
    expect(optionCents(Number.NaN)).toBeNull();
  });
});

describe("a line's units", () => {
  it("multiply one unit's price (DECISIONS 34); a line of no units or a part of one is a bug", () => {
    expect(lineTotalCents(649_00, 1)).toBe(649_00);
    expect(lineTotalCents(649_00, 3)).toBe(1947_00);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => lineTotalCents(649_00, bad)).toThrow(RangeError);
  });

  it("read as the price alone for one, 'N × price' for more", () => {
    expect(unitsAndPrice(1, 649_00)).toBe("$649.00");
    expect(unitsAndPrice(2, 3450_00)).toBe("2 × $3,450.00");
  });
});
