import type { ReactNode } from "react";
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";
import type { MailRow, SubmissionMail } from "./types";
import { PHONE_IN_TEXT, telHref } from "~/lib/company";

const brand = "#1d5c3a";
const ink = "#1a1f1c";
const muted = "#4b5563";

const paragraph = { fontSize: "15px", lineHeight: "22px", margin: "0 0 12px" };
const subheading = { color: ink, fontSize: "17px", lineHeight: "24px", margin: "24px 0 6px" };

/**
 * The one e-mail layout, for the company's copies and the visitor's mails alike: a heading and a
 * short paragraph; then, when the mail has them, the facts in a box (what a person looks for
 * first), sections under their own headings and one button; then the label/value rows and the
 * footer. Laid out in one column, so it reads the same on a phone as on a desk.
 */
export function SubmissionEmail({ title, intro, facts, sections, action, rowsHeading, rows, footer }: SubmissionMail) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{intro}</Preview>
      <Body style={{ backgroundColor: "#f4f8f5", fontFamily: "Arial, Helvetica, sans-serif", color: ink, margin: 0 }}>
        <Container
          style={{
            backgroundColor: "#ffffff",
            padding: "24px 20px",
            maxWidth: "600px",
            borderTop: `6px solid ${brand}`,
          }}
        >
          <Heading as="h1" style={{ color: brand, fontSize: "22px", lineHeight: "28px", margin: "0 0 12px" }}>
            {title}
          </Heading>
          <Text style={paragraph}>{rich(intro)}</Text>
          {facts?.length ? <Facts facts={facts} /> : null}
          {sections?.map((section, i) => (
            <Section key={`${section.heading}-${i}`}>
              <Heading as="h2" style={subheading}>
                {section.heading}
              </Heading>
              {section.paragraphs.map((p, j) => (
                <Text key={j} style={paragraph}>
                  {rich(p, { urls: true })}
                </Text>
              ))}
            </Section>
          ))}
          {action ? (
            <Section style={{ margin: "20px 0 8px" }}>
              <Button
                href={action.url}
                style={{
                  backgroundColor: brand,
                  borderRadius: "6px",
                  color: "#ffffff",
                  fontSize: "16px",
                  fontWeight: "bold",
                  lineHeight: "22px",
                  padding: "13px 20px",
                  textAlign: "center",
                  textDecoration: "none",
                  display: "block",
                }}
              >
                {action.label}
              </Button>
            </Section>
          ) : null}
          {rows.length ? (
            <>
              <Hr style={{ borderColor: "#d6e2da", margin: "24px 0 4px" }} />
              {rowsHeading ? (
                <Heading as="h2" style={subheading}>
                  {rowsHeading}
                </Heading>
              ) : null}
              <Section>
                {rows.map((row, i) => (
                  <Text key={`${row.label}-${i}`} style={{ margin: "0 0 10px", fontSize: "14px", lineHeight: "20px" }}>
                    <strong>{row.label}</strong>
                    <br />
                    <span style={{ whiteSpace: "pre-wrap" }}>{row.value || "—"}</span>
                  </Text>
                ))}
              </Section>
            </>
          ) : null}
          {footer ? (
            <>
              <Hr style={{ borderColor: "#d6e2da", margin: "20px 0 4px" }} />
              <Text style={{ fontSize: "13px", lineHeight: "19px", color: muted }}>{rich(footer)}</Text>
            </>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The facts, one under the other (label small, value large): no columns to squeeze on a phone. */
function Facts({ facts }: { facts: MailRow[] }) {
  return (
    <Section
      style={{
        backgroundColor: "#eef5f0",
        borderLeft: `4px solid ${brand}`,
        borderRadius: "6px",
        padding: "14px 16px 4px",
        margin: "4px 0 8px",
      }}
    >
      {facts.map((fact, i) => (
        <Text key={`${fact.label}-${i}`} style={{ margin: "0 0 12px" }}>
          <span
            style={{
              display: "block",
              color: muted,
              fontSize: "12px",
              lineHeight: "16px",
              letterSpacing: "0.04em",
              textTransform: "uppercase",
            }}
          >
            {fact.label}
          </span>
          <span style={factValue(fact.value)}>{rich(fact.value || "—")}</span>
        </Text>
      ))}
    </Section>
  );
}

/** A short value stands out in bold; a sentence (what happened to the money) reads better in plain weight. */
function factValue(value: string) {
  const sentence = value.length > 60;
  return {
    display: "block",
    color: ink,
    fontSize: sentence ? "15px" : "16px",
    lineHeight: "22px",
    fontWeight: sentence ? "normal" : "bold",
    whiteSpace: "pre-wrap",
  } as const;
}

/** A web address, or a US phone number as the site writes it: "(810) 555-0100". */
const LINKABLE = new RegExp(`(https?:\\/\\/[^\\s<>"]*[^\\s<>".,;:!?)]|${PHONE_IN_TEXT.source})`, "g");

/**
 * Text with its phone numbers as tel: links that never break between their parts and, in the
 * sections (our own words, never what a visitor typed), its web addresses as links that may break
 * anywhere on a narrow screen. Everything else stays text that React escapes.
 */
function rich(text: string, { urls = false } = {}): ReactNode {
  const parts = text.split(LINKABLE);
  if (parts.length === 1) return text;
  return parts.map((part, i) => {
    if (i % 2 === 0) return part;
    if (part.startsWith("http"))
      return urls ? (
        <Link key={i} href={part} style={{ color: brand, wordBreak: "break-all" }}>
          {part}
        </Link>
      ) : (
        part
      );
    return (
      <Link key={i} href={telHref(part)} style={{ color: "inherit", whiteSpace: "nowrap" }}>
        {part}
      </Link>
    );
  });
}
