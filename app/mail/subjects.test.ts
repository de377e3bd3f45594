import { describe, expect, it } from "vitest";
import {
  bookingCancelledSubject,
  bookingMovedSubject,
  companyIntro,
  companySubject,
  confirmationSubject,
  invoiceReceiptSubject,
  orderReceiptSubject,
  receiptSubject,
  refundActionSubject,
  serviceVisitCancelledSubject,
  serviceVisitMovedSubject,
  serviceVisitReceiptSubject,
  visitorFooter,
  withArticle,
} from "./subjects";

describe("mail subjects and wording", () => {
  it("puts the article that fits the noun: an order, an invoice payment, a quote request", () => {
    expect(withArticle("order")).toBe("an order");
    expect(withArticle("invoice payment")).toBe("an invoice payment");
    expect(withArticle("employment application")).toBe("an employment application");
    expect(withArticle("quote request")).toBe("a quote request");
    expect(withArticle("residential service booking")).toBe("a residential service booking");
    expect(withArticle("discount sign-up")).toBe("a discount sign-up");
  });

  it("the company copy says who sent what", () => {
    expect(companyIntro("Jane Doe", "order", true)).toBe(
      "Jane Doe sent an order through the website. Reply to this e-mail to answer them.",
    );
    expect(companyIntro("Jane Doe", "invoice payment", false)).toBe(
      "Jane Doe sent an invoice payment through the website.",
    );
    expect(companyIntro("Jane Doe", "contact message", false)).toBe(
      "Jane Doe sent a contact message through the website.",
    );
    expect(companySubject("quote request", 12, "Jane Doe")).toBe("New quote request #12 from Jane Doe");
  });

  it("the visitor's subjects end with the company's name", () => {
    expect(confirmationSubject("contact message")).toBe("We received your contact message — Dover Doors & Windows");
    expect(receiptSubject(invoiceReceiptSubject("INV-1001", true))).toBe(
      "Payment receipt for invoice INV-1001 — Dover Doors & Windows",
    );
    expect(invoiceReceiptSubject("INV-1001", false)).toBe("Your payment for invoice INV-1001 is being confirmed");
    expect(serviceVisitReceiptSubject("Saturday, November 28, 2026", true)).toBe(
      "Your service visit on Saturday, November 28, 2026 is booked",
    );
    expect(serviceVisitReceiptSubject("Saturday, November 28, 2026", false)).toBe(
      "Your service visit on Saturday, November 28, 2026: payment being confirmed",
    );
    expect(orderReceiptSubject("DO-7K3M-Q9", true)).toBe("Your order DO-7K3M-Q9 is placed");
    expect(orderReceiptSubject("DO-7K3M-Q9", false)).toBe("Your order DO-7K3M-Q9: payment being confirmed");
  });

  it("a booking's changes: the visitor's name the visit, the company's lead with the reference", () => {
    const visit = "Saturday, November 28, 2026, Morning (8 AM to 11 AM)";
    expect(receiptSubject(serviceVisitCancelledSubject(visit))).toBe(
      `Your service visit on ${visit} is cancelled — Dover Doors & Windows`,
    );
    expect(receiptSubject(serviceVisitMovedSubject(visit))).toBe(
      `Your service visit is moved to ${visit} — Dover Doors & Windows`,
    );
    expect(bookingCancelledSubject("DV-7K3M-Q9", visit)).toBe(`Booking DV-7K3M-Q9 cancelled: ${visit}`);
    expect(bookingMovedSubject("DV-7K3M-Q9", visit)).toBe(`Booking DV-7K3M-Q9 moved to ${visit}`);
    expect(refundActionSubject("DV-7K3M-Q9")).toBe("Action needed: refund for booking DV-7K3M-Q9");
  });

  it("the visitor's footer says whom to call and that a reply reaches the office", () => {
    expect(visitorFooter("info@example.com")).toBe(
      "Dover Doors & Windows · Questions? Call us at (810) 555-0100, or reply to this e-mail: replies reach our office (info@example.com).",
    );
  });
});
