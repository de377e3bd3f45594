import { describe, expect, it } from "vitest";
import { shownMessage } from "./result";

describe("the message a form shows", () => {
  it("is the server's message, or 'Submission failed.' for a failure without one", () => {
    expect(shownMessage({ status: "success", message: "Your message has been sent!" })).toEqual({
      status: "success",
      message: "Your message has been sent!",
    });
    expect(shownMessage({ status: "error", message: "" })).toEqual({ status: "error", message: "Submission failed." });
    expect(shownMessage(null)).toBeNull();
  });
});
