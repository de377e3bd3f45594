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
