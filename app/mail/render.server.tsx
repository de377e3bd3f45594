import { renderToStaticMarkup } from "react-dom/server";
import { SubmissionEmail } from "./templates/SubmissionEmail";
import type { MailAction, MailRow, MailSection, SubmissionMail } from "./templates/types";

/**
 * React Email's own doctype: e-mail clients expect XHTML 1.0 Transitional.
 * @react-email/render prepends the same one.
 */
const EMAIL_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * Renders a mail as HTML (React Email components) plus its plain-text alternative.
 *
 * React's synchronous renderer, not @react-email/render's `render()`: that one
 * streams through web streams inside Suspense (for templates that suspend),
 * which cost ten times as much. Our templates never suspend, and the markup is
 * the same minus React's streaming comments
 * (docs/decisions/021-mail-renders-synchronously.md). The mail worker renders
 * a submission's mails when it sends them (docs/decisions/050-form-path.md).
 */
export function renderSubmissionMail(mail: SubmissionMail): { html: string; text: string } {
  const html = EMAIL_DOCTYPE + renderToStaticMarkup(<SubmissionEmail {...mail} />);
  return { html, text: plainText(mail) };
}

/**
 * The plain-text alternative, in the HTML's order: title, intro, the facts as "Label: value"
 * lines, each section under an underlined heading, the action's label and its URL on a line of
 * its own (mail clients make it a link), then the rows and the footer.
 */
export function plainText({
  title,
  intro,
  facts,
  sections,
  action,
  rowsHeading,
  rows,
  footer,
}: SubmissionMail): string {
  const lines = [title, underline(title, "="), "", intro, ""];
  if (facts?.length) {
    for (const fact of facts) lines.push(`${fact.label}: ${hang(fact.value || "—", fact.label.length + 2)}`);
    lines.push("");
  }
  for (const section of sections ?? []) {
    lines.push(section.heading, underline(section.heading, "-"), "");
    for (const p of section.paragraphs) lines.push(p, "");
  }
  if (action) lines.push(`${action.label}:`, action.url, "");
  if (rowsHeading && rows.length) lines.push(rowsHeading, underline(rowsHeading, "-"), "");
  for (const row of rows) lines.push(`${row.label}:`, indent(row.value || "—"), "");
  if (footer) lines.push("--", footer);
  return `${lines.join("\n").trimEnd()}\n`;
}

function underline(heading: string, char: string): string {
  return char.repeat(Math.min(heading.length, 60));
}

function indent(value: string) {
  return value
    .split(/\r?\n/)
    .map((l) => `  ${l}`)
    .join("\n");
}

/** A value's later lines lined up under its first one ("Address: 12 Elm St\n         Flint"). */
function hang(value: string, width: number) {
  return value.split(/\r?\n/).join(`\n${" ".repeat(width)}`);
}

export type { MailAction, MailRow, MailSection, SubmissionMail };
