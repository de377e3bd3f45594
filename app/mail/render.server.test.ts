import { describe, expect, it } from "vitest";
import { renderSubmissionMail } from "./render.server";

const mail = {
  title: "New contact message #7",
  intro: "Jane & Joe sent a contact message through the website.",
  rows: [
    { label: "First name", value: '<script>alert("x")</script>' },
    { label: "How can we help you?", value: "Line one\nLine two" },
  ],
  footer: "Dover Doors & Windows",
};

describe("renderSubmissionMail", () => {
  it("renders the React Email layout as an XHTML document without React's streaming markers", () => {
    const { html } = renderSubmissionMail(mail);
    expect(html.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"')).toBe(true);
    expect(html).toContain('<html dir="ltr" lang="en">');
    expect(html).toContain("New contact message #7</h1>");
    // The preview line React Email hides in the inbox list.
    expect(html).toMatch(/<div style="display:none[^"]*"[^>]*>Jane &amp; Joe sent/);
    expect(html).not.toContain("<!--$-->");
    expect(html).not.toMatch(/<!--(html|head|body)-->/);
  });

  it("escapes what the visitor typed", () => {
    const { html, text } = renderSubmissionMail(mail);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(text).toContain('  <script>alert("x")</script>');
    expect(text).toContain("How can we help you?:\n  Line one\n  Line two");
  });
});

describe("a mail written for a person: facts, sections, one action, then the rows", () => {
  const receipt = {
    title: "Your service visit is booked",
    intro: "Thank you, Jane Doe. Your garage door service visit is booked and paid.",
    facts: [
      { label: "Booking reference", value: "DV-7K3M-Q9" },
      { label: "Address", value: "12 Elm St\nFlint, MI 48503" },
    ],
    sections: [{ heading: "What happens next", paragraphs: ["A technician arrives within your window.", "Second."] }],
    action: { label: "See, change or cancel your booking", url: "https://dover.example.com/booking/abc?x=1&y=2" },
    rowsHeading: "Your details",
    rows: [{ label: "Name", value: "Jane Doe" }],
    footer: "Questions? Call us.",
  };

  it("the text reads in the HTML's order, the facts as lines, the link on its own line", () => {
    expect(renderSubmissionMail(receipt).text).toBe(
      [
        "Your service visit is booked",
        "============================",
        "",
        "Thank you, Jane Doe. Your garage door service visit is booked and paid.",
        "",
        "Booking reference: DV-7K3M-Q9",
        "Address: 12 Elm St",
        "         Flint, MI 48503",
        "",
        "What happens next",
        "-----------------",
        "",
        "A technician arrives within your window.",
        "",
        "Second.",
        "",
        "See, change or cancel your booking:",
        "https://dover.example.com/booking/abc?x=1&y=2",
        "",
        "Your details",
        "------------",
        "",
        "Name:",
        "  Jane Doe",
        "",
        "--",
        "Questions? Call us.",
        "",
      ].join("\n"),
    );
  });

  it("the HTML: the facts before the sections, the action a link (escaped), the rows under their heading", () => {
    const { html } = renderSubmissionMail(receipt);
    const at = (s: string) => html.indexOf(s);
    expect(at("DV-7K3M-Q9")).toBeGreaterThan(at("booked and paid.</p>"));
    expect(at("What happens next</h2>")).toBeGreaterThan(at("DV-7K3M-Q9"));
    expect(html).toContain('href="https://dover.example.com/booking/abc?x=1&amp;y=2"');
    expect(at("See, change or cancel your booking")).toBeGreaterThan(at("Second."));
    expect(at("Your details</h2>")).toBeGreaterThan(at("See, change or cancel your booking"));
    expect(at("Jane Doe</span>")).toBeGreaterThan(at("Your details</h2>"));
  });

  it("a row stored before facts existed (title, intro, rows, footer) renders as it did: no box, no heading, no button", () => {
    const { html, text } = renderSubmissionMail(mail);
    expect(html).not.toContain("<h2");
    expect(html).not.toContain("<a ");
    expect(text).toBe(
      [
        "New contact message #7",
        "======================",
        "",
        "Jane & Joe sent a contact message through the website.",
        "",
        "First name:",
        '  <script>alert("x")</script>',
        "",
        "How can we help you?:",
        "  Line one",
        "  Line two",
        "",
        "--",
        "Dover Doors & Windows",
        "",
      ].join("\n"),
    );
  });
});

describe("links in a mail's HTML", () => {
  it("phone numbers are tel: links that do not break; web addresses are links only in the sections, never in what a visitor typed", () => {
    const { html } = renderSubmissionMail({
      title: "Booking cancelled",
      intro: "Hello http://intro.example.com, call (810) 555-0100.",
      facts: [{ label: "Address", value: "http://fact.example.com" }],
      sections: [
        { heading: "Again?", paragraphs: ["Book at https://dover.example.com/request-service?type=residential."] },
      ],
      rows: [{ label: "Describe the problem", value: "See https://row.example.com (989) 555-0102" }],
    });
    expect(html).toMatch(/<a href="tel:\+18105550100"[^>]*white-space:nowrap[^>]*>\(810\) 555-0100<\/a>/);
    expect(html).toContain('href="https://dover.example.com/request-service?type=residential"');
    expect(html).toContain(">https://dover.example.com/request-service?type=residential</a>.");
    for (const typed of ["intro", "fact", "row"]) expect(html).not.toContain(`href="http://${typed}.example.com`);
    expect(html).not.toContain('href="https://row.example.com');
    expect(html).not.toContain("tel:+19895550102");
  });
});
