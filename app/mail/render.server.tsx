import type { MailRow, SubmissionMail } from "./templates/types";

/**
 * Renders a mail as HTML (React Email) plus its plain-text alternative.
 * React Email is loaded on first use so it does not slow the server's start.
 */
export async function renderSubmissionMail(mail: SubmissionMail): Promise<{ html: string; text: string }> {
  const [{ render }, { SubmissionEmail }] = await Promise.all([
    import("@react-email/render"),
    import("./templates/SubmissionEmail"),
  ]);
  const html = await render(<SubmissionEmail {...mail} />);
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
