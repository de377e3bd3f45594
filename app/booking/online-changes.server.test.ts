import { describe, expect, it } from "vitest";
import { bookingChangesSentence, onlineChangesSentence } from "./online-changes.server";

/**
 * What a booking's receipt and page say of its online changes (DECISIONS 31, 37): until when, in
 * Michigan time, or, inside the cut-off, that they are closed and whom to call.
 */
describe("onlineChangesSentence", () => {
  // 8 AM on Tuesday, 8 December 2026 (EST): the cut-off is 8 AM on Monday the 7th.
  const deadline = new Date("2026-12-07T13:00:00Z");

  it("before the cut-off: until when, as the company's clock says it", () => {
    expect(onlineChangesSentence(deadline, 24, new Date("2026-12-01T15:00:00Z"))).toBe(
      "You can move or cancel this visit on your booking's page until 8 AM on Monday, December 7.",
    );
  });

  it("at or after the cut-off (a visit booked inside it): closed, call us", () => {
    expect(onlineChangesSentence(deadline, 24, deadline)).toBe(
      "Your visit starts within 24 hours, so it can no longer be moved or cancelled online: call us at (810) 555-0100 and we will do what we can.",
    );
  });
});

describe("bookingChangesSentence", () => {
  const booking = { status: "booked", paid: true, serviceDate: "2026-12-08", serviceTime: "Morning (8 AM to 11 AM)" };
  const now = new Date("2026-12-01T15:00:00Z");

  it("a paid booking, booked or moved: the sentence", () => {
    expect(bookingChangesSentence(booking, 24, now)).toMatch(/until 8 AM on Monday, December 7\.$/);
    expect(bookingChangesSentence({ ...booking, status: "rescheduled" }, 24, now)).toMatch(/until 8 AM/);
  });

  it("nothing for a cancelled booking or one whose payment is being confirmed", () => {
    expect(bookingChangesSentence({ ...booking, status: "cancelled" }, 24, now)).toBeNull();
    expect(bookingChangesSentence({ ...booking, status: "cancellation pending" }, 24, now)).toBeNull();
    expect(bookingChangesSentence({ ...booking, paid: false }, 24, now)).toBeNull();
  });
});
