import { renderToStaticMarkup } from "react-dom/server";
import { SubmissionEmail } from "./templates/SubmissionEmail";
import type { MailRow, SubmissionMail } from "./templates/types";

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

export function plainText({ title, intro, rows, footer }: SubmissionMail): string {
  const lines = [title, "=".repeat(Math.min(title.length, 60)), "", intro, ""];
  for (const row of rows) lines.push(`${row.label}:`, indent(row.value || "—"), "");
  if (footer) lines.push("--", footer);
  return `${lines.join("\n").trimEnd()}\n`;
}

function indent(value: string) {
  return value
    .split(/\r?\n/)
    .map((l) => `  ${l}`)
    .join("\n");
}

export type { MailRow, SubmissionMail };
