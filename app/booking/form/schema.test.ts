import { parseWithZod } from "@conform-to/zod/v4";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AVAILABILITY_MESSAGES } from "../availability";
import { previewVisit, residentialServiceSchema, visitDateRefusal } from "./schema";

/**
 * The visit's day refused before any window is looked at: by "Show price" (no JavaScript: the
 * preview post, ./handle.server.ts) and by "Book and Pay" (the schema). The clock is Detroit's:
 * 2026-11-24 at 16:30 EST, when every window of that day has begun, and at 10:00, when not.
 */
const AFTER_FOUR = new Date("2026-11-24T21:30:00Z");
const MORNING = new Date("2026-11-24T15:00:00Z");
const PAST = "Please choose today or a later date.";
const MISSING_TIME = "Please choose a service time.";

function preview(date: string): Record<string, string[]> {
  const fields = new FormData();
  fields.set("intent", "show-price");
  fields.set("zip", "");
  fields.set("serviceDate", date);
  return previewVisit(fields);
}

/** A whole booking as a no-JS browser posts it, but for the visit. */
function booking(serviceDate: string, serviceTime: string): FormData {
  const fields = new FormData();
  const values: Record<string, string> = {
    name: "Ada Lovelace",
    phone: "(810) 555-0142",
    email: "ada@example.com",
    address1: "415 Court St",
    city: "Flint",
    state: "MI",
    zip: "48502",
    country: "United States",
    contactMethod: "Text",
    serviceDate,
    serviceTime,
    cardNumber: "4242424242424242",
    cardExpMonth: "12",
    cardExpYear: "2030",
    cardCVC: "123",
    cardHolder: "Ada Lovelace",
  };
  for (const [name, value] of Object.entries(values)) fields.set(name, value);
  return fields;
}

function errors(fields: FormData) {
  const submission = parseWithZod(fields, { schema: residentialServiceSchema });
  return submission.status === "success" ? {} : (submission.error ?? {});
}

describe("Show price (no JavaScript) refuses a day that cannot be booked, beside the date", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a past day, as Book and Pay refuses it", () => {
    vi.setSystemTime(MORNING);
    expect(preview("2026-11-23")).toEqual({ serviceDate: [PAST] });
    expect(visitDateRefusal("2025-07-04")).toBe(PAST);
  });

  it("today once every window has begun: no times are left", () => {
    vi.setSystemTime(AFTER_FOUR);
    expect(preview("2026-11-24")).toEqual({ serviceDate: [AVAILABILITY_MESSAGES.dayBegun] });
    expect(preview("2026-11-25")).toEqual({});
  });

  it("today while a window is still ahead, a later day, or no date yet: nothing to say", () => {
    vi.setSystemTime(MORNING);
    expect(preview("2026-11-24")).toEqual({});
    expect(preview("2026-12-01")).toEqual({});
    expect(preview("")).toEqual({});
    expect(previewVisit(new FormData())).toEqual({});
  });
});

describe("Book and Pay: a missing window on a day with none left is the date's error", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("today after 4 PM without a window: no times are left that day, not 'Please choose a service time.'", () => {
    vi.setSystemTime(AFTER_FOUR);
    const refused = errors(booking("2026-11-24", ""));
    expect(refused.serviceDate).toEqual([AVAILABILITY_MESSAGES.dayBegun]);
    expect(refused.serviceTime).toBeUndefined();
  });

  it("another day without a window still asks for one; an unknown window is refused; a good visit passes", () => {
    vi.setSystemTime(AFTER_FOUR);
    expect(errors(booking("2026-11-25", ""))).toEqual({ serviceTime: [MISSING_TIME] });
    expect(errors(booking("", ""))).toMatchObject({ serviceTime: [MISSING_TIME] });
    // With JavaScript no window is posted at all until a day is chosen (the radios come with the day).
    const noWindow = booking("", "");
    noWindow.delete("serviceTime");
    expect(errors(noWindow).serviceTime).toEqual([MISSING_TIME]);
    expect(errors(booking("2026-11-25", "Midnight"))).toEqual({
      serviceTime: ["Please choose one of the listed options."],
    });
    const ok = parseWithZod(booking("2026-11-25", "Evening (After 4 PM)"), { schema: residentialServiceSchema });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value.serviceTime).toBe("Evening (After 4 PM)");
  });

  it("a past day is the date's error, as before", () => {
    vi.setSystemTime(MORNING);
    expect(errors(booking("2026-11-23", "Evening (After 4 PM)"))).toEqual({ serviceDate: [PAST] });
  });
});
