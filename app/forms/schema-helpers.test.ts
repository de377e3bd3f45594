import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { residentialServiceSchema } from "~/booking/form/schema";
import { checkoutSchema } from "~/shop/checkout/schema";
import { formatUsPhone, phoneField, schemaFieldOrder } from "./schema-helpers";

describe("schemaFieldOrder", () => {
  it("reads an object's keys through refinements, pipes and transforms", () => {
    const object = z.object({ b: z.string(), a: z.string() });
    expect(schemaFieldOrder(object)).toEqual(["b", "a"]);
    expect(schemaFieldOrder(object.superRefine(() => {}))).toEqual(["b", "a"]);
    expect(schemaFieldOrder(object.transform((v) => v).pipe(z.any()))).toEqual(["b", "a"]);
    expect(schemaFieldOrder(z.string())).toEqual([]);
  });

  it("puts the booking's window right after its date, and the checkout's card after its address", () => {
    const booking = schemaFieldOrder(residentialServiceSchema);
    expect(booking.indexOf("serviceTime")).toBe(booking.indexOf("serviceDate") + 1);
    const checkout = schemaFieldOrder(checkoutSchema);
    expect(checkout.indexOf("zip")).toBeLessThan(checkout.indexOf("cardNumber"));
  });
});

describe("a visitor's phone number, as the site shows it", () => {
  it("writes a North American number the one way, however it was typed", () => {
    for (const typed of ["8105550142", "810-555-0142", "(810)555-0142", "+1 810.555.0142", "1 810 555 0142"])
      expect(formatUsPhone(typed), typed).toBe("(810) 555-0142");
  });

  it("keeps anything else as typed: an extension, words, another country, too few digits", () => {
    for (const typed of ["810-555-0142 x12", "call after 5", "+44 20 7946 0958", "555-0142", "010-555-0142"])
      expect(formatUsPhone(typed), typed).toBe(typed);
  });

  it("is what the forms store", () => {
    expect(phoneField().parse(" 810.555.0142 ")).toBe("(810) 555-0142");
  });
});
