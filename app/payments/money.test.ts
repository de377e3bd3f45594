import { describe, expect, it } from "vitest";
import { centsToDecimal, formatUsd, parseDollars } from "./money";

describe("cents", () => {
  it("to the processor's decimal string and to dollars for people", () => {
    expect(centsToDecimal(25050)).toBe("250.50");
    expect(centsToDecimal(1)).toBe("0.01");
    expect(centsToDecimal(19900)).toBe("199.00");
    expect(formatUsd(12995)).toBe("$129.95");
    expect(formatUsd(10_000_000)).toBe("$100,000.00");
    expect(() => centsToDecimal(129.95)).toThrow(RangeError);
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
  });

  it("a typed amount: digits with an optional point and at most two decimals", () => {
    expect(parseDollars("250.5")).toBe(25050);
    expect(parseDollars("250.50")).toBe(25050);
    expect(parseDollars("250")).toBe(25000);
    expect(parseDollars(".5")).toBe(50);
    expect(parseDollars("$1,250.05")).toBe(125005);
    expect(parseDollars("0.1")).toBe(10); // not 10.000000000000002
    for (const bad of ["", ".", "1.234", "-5", "1e3", "12,34", "abc", "1.2.3", "Infinity"]) {
      expect(parseDollars(bad), bad).toBeNull();
    }
  });
});
