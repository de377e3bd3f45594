import { describe, expect, it } from "vitest";
import { summaryEntries, unsaid } from "./ErrorSummary";
import { splitAtPhone } from "./PhoneText";

/**
 * The error summary's words (issue 38 item 3): each problem said once, a phone number outside
 * its field's link (a link cannot hold another), the spam check's entry where the form has it.
 */
const OUTSIDE =
  "We don't book online visits to ZIP 49684: it is about 123 miles from our nearest service location, Saginaw. Call us at (989) 555-0102, or ask for a quote and we'll tell you what we can do.";

describe("splitAtPhone", () => {
  it("links the sentences before the phone number; the rest follows", () => {
    expect(splitAtPhone(OUTSIDE)).toEqual({
      link: "We don't book online visits to ZIP 49684: it is about 123 miles from our nearest service location, Saginaw.",
      rest: "Call us at (989) 555-0102, or ask for a quote and we'll tell you what we can do.",
    });
  });

  it("a message without a number is its link whole; one that starts with it has no link part", () => {
    expect(splitAtPhone("City is required.")).toEqual({ link: "City is required.", rest: "" });
    expect(splitAtPhone("(810) 555-0100 is closed.")).toEqual({ link: "", rest: "(810) 555-0100 is closed." });
  });
});

describe("unsaid", () => {
  it("leaves out what the entries say", () => {
    expect(unsaid(OUTSIDE, [{ message: OUTSIDE }])).toBe("");
    expect(
      unsaid("Please correct the highlighted fields and send the form again. Please complete the spam check.", [
        { message: "Please complete the spam check." },
        { message: "City is required." },
      ]),
    ).toBe("Please correct the highlighted fields and send the form again.");
    expect(unsaid("Your card was declined.", [{ message: "City is required." }])).toBe("Your card was declined.");
  });
});

describe("summaryEntries", () => {
  it("puts the spam check after the fields and before the photos", () => {
    const entries = summaryEntries(
      "quote",
      { photos: ["Too many photos."], city: ["City is required."] },
      { order: ["city", "zip"], photos: "photos", spamCheck: true },
    );
    expect(entries.map((e) => [e.name, e.target, e.message])).toEqual([
      ["city", "quote-city", "City is required."],
      ["captcha", "quote-captcha", "Please complete the spam check."],
      ["photos", "quote-photos", "Too many photos."],
    ]);
  });
});
