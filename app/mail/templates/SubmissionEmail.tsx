import { Body, Container, Head, Heading, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { SubmissionMail } from "./types";

const brand = "#1d5c3a";

/**
 * The one e-mail layout: a heading, a short paragraph and the submitted
 * fields as label/value pairs. Used for the company copy and the visitor's
 * confirmation alike (the rows differ).
 */
export function SubmissionEmail({ title, intro, rows, footer }: SubmissionMail) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{intro}</Preview>
      <Body style={{ backgroundColor: "#f4f8f5", fontFamily: "Arial, Helvetica, sans-serif", color: "#1a1f1c" }}>
        <Container
          style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "600px", borderTop: `6px solid ${brand}` }}
        >
          <Heading as="h1" style={{ color: brand, fontSize: "22px", margin: "0 0 12px" }}>
            {title}
          </Heading>
          <Text style={{ fontSize: "15px", lineHeight: "22px" }}>{intro}</Text>
          <Hr />
          <Section>
            {rows.map((row, i) => (
              <Text key={`${row.label}-${i}`} style={{ margin: "0 0 10px", fontSize: "14px", lineHeight: "20px" }}>
                <strong>{row.label}</strong>
                <br />
                <span style={{ whiteSpace: "pre-wrap" }}>{row.value || "—"}</span>
              </Text>
            ))}
          </Section>
          {footer ? (
            <>
              <Hr />
              <Text style={{ fontSize: "12px", color: "#4b5563" }}>{footer}</Text>
            </>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}
