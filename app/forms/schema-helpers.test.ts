import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { residentialServiceSchema } from "~/booking/form/schema";
import { checkoutSchema } from "~/shop/checkout/schema";
import { schemaFieldOrder } from "./schema-helpers";

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
