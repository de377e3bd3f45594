import { describe, expect, it } from "vitest";
import { cancelWords, changeWords, moneySentence, paidWords, stillOnItsWay } from "./words";

const CARD = "Visa ending in 4242";
/** Tuesday evening booked ($159.95), then moved to a weekday morning ($129.95): $30.00 on its way back. */
const AFTER_CHEAPER_MOVE = { netCents: 159_95, pendingInCents: 0, pendingOutCents: 30_00, card: CARD };

describe("money words (issue 45 item 1)", () => {
  it("a preview compares the new price with what was paid net of money on its way back, and says so", () => {
    expect(changeWords(AFTER_CHEAPER_MOVE, 159_00)).toBe(
      "The new time costs $159.00; you have paid $129.95 (the $30.00 on its way back to Visa ending in 4242 counted as given back), so $29.05 more: enter your card to pay the difference.",
    );
    expect(changeWords({ ...AFTER_CHEAPER_MOVE, pendingOutCents: 0 }, 129_95)).toBe(
      "The new time costs $129.95; you have paid $159.95, so $30.00 goes back to Visa ending in 4242.",
    );
    expect(changeWords({ ...AFTER_CHEAPER_MOVE, pendingOutCents: 0, netCents: 129_95 }, 129_95)).toBe(
      "The new time costs $129.95, the same as you have paid: nothing more to pay.",
    );
  });

  it("the payment line says what stays paid, then each pending amount with its direction and when", () => {
    // After the dearer move: $189.00 charged in all, $30.00 still on its way back: the visit's $159.00 stays paid.
    expect(paidWords({ ...AFTER_CHEAPER_MOVE, netCents: 189_00 })).toBe(
      "$159.00 paid with Visa ending in 4242; a refund of $30.00 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.",
    );
    expect(paidWords({ netCents: 129_95, pendingInCents: 29_05, pendingOutCents: 0, card: CARD })).toBe(
      "$129.95 paid with Visa ending in 4242; a charge of $29.05 to Visa ending in 4242, not confirmed yet: we will e-mail you when it is, usually within the hour.",
    );
    // Cancelled, all on its way back: no "$0.00 paid".
    expect(paidWords({ netCents: 159_95, pendingInCents: 0, pendingOutCents: 159_95, card: CARD })).toBe(
      "A refund of $159.95 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.",
    );
    expect(paidWords({ netCents: 0, pendingInCents: 0, pendingOutCents: 0, card: CARD })).toBe(
      "$0.00 paid with Visa ending in 4242.",
    );
    expect(paidWords({ ...AFTER_CHEAPER_MOVE, netCents: 189_00 }, "company")).toBe(
      "$159.00 paid with Visa ending in 4242; a refund of $30.00 on its way, not confirmed yet.",
    );
  });

  it("a cancel gives back what stays paid and names what was already on its way: the sums add up", () => {
    expect(cancelWords(AFTER_CHEAPER_MOVE)).toBe(
      "What you have paid for this visit, $129.95, goes back to Visa ending in 4242, with the $30.00 already on its way back: $159.95 in all.",
    );
    expect(cancelWords({ ...AFTER_CHEAPER_MOVE, pendingOutCents: 0, netCents: 199_00 })).toBe(
      "What you have paid for this visit, $199.00, goes back to Visa ending in 4242.",
    );
    expect(cancelWords({ ...AFTER_CHEAPER_MOVE, pendingOutCents: 159_95 })).toBe("");
  });

  it("ledger lines: pending says its direction; a change's sentence names earlier money on its way", () => {
    expect(
      moneySentence([
        { kind: "void", state: "succeeded", amountCents: 69_05, card: CARD },
        { kind: "refund", state: "pending", amountCents: 129_95, card: CARD },
      ]),
    ).toBe(
      "The $69.05 charge was cancelled before it was taken (no money left your card); a refund of $129.95 to Visa ending in 4242, on its way: we will e-mail you when it is confirmed, usually within a day.",
    );
    expect(stillOnItsWay(30_00, CARD)).toBe(
      "Also on its way back from an earlier change: $30.00 to Visa ending in 4242.",
    );
    expect(stillOnItsWay(0, CARD)).toBe("");
  });
});
