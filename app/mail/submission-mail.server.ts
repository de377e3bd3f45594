import type { Tx } from "@db/client.server";
import { env } from "~/lib/env.server";
import { calendarAttachment, type CalendarInvite } from "./calendar.server";
import { enqueueMail, type OutgoingMail } from "./outbox.server";
import { plainText, type MailAction, type MailRow, type MailSection, type SubmissionMail } from "./render.server";
import {
  companyIntro,
  companySubject,
  companyTitle,
  confirmationIntro,
  confirmationSubject,
  receiptSubject,
  visitorFooter,
} from "./subjects";

export type { CalendarInvite } from "./calendar.server";

/**
 * The e-mails a stored form submission causes (subjects, intros, recipients):
 * the company's copy to COMPANY_INBOX, and the visitor's confirmation when
 * they gave an address. Written to the outbox in the submission's own
 * transaction (the form pipeline, app/forms/pipeline/, calls this),
 * so a mail outage never loses or blocks a submission. A row holds the plain
 * text and what the mail says (`content`); the worker renders the HTML when it
 * sends it, so the request does not (docs/decisions/050-form-path.md).
 */
export type SubmittedForm = {
  /** What it is, for subjects and intros: "contact message", "quote request". */
  noun: string;
  /** The stored row, named in the subject and linked from the outbox row. */
  submission: { table: string; id: number };
  /** The label/value rows (the form's handler left out or masked anything secret). */
  summary: MailRow[];
  /** Name shown in the subject line, e.g. "Jane Doe". */
  name: string;
  /** The visitor's address, for Reply-To and the confirmation. */
  email?: string;
  /** Extra sentence in the visitor's confirmation. */
  confirmationNote?: string;
  /** Photos stored with the submission (named in the company's copy, never attached). */
  photos: number;
  /** Path the form was sent to. */
  page: string;
  clientIp: string | null;
  /** A paid form: the visitor's e-mail is this receipt instead of the plain confirmation. */
  receipt?: MailReceipt;
  /** A booked visit: the visitor's e-mail carries it as a calendar invitation (service-visit.ics); the company's copy does not. */
  calendar?: CalendarInvite;
};

/**
 * A payment receipt (amount, brand, last four, what was paid): never more of the card.
 * `subject` from ./subjects (invoiceReceiptSubject, …); the company's name is added here.
 * A receipt written for a person (a booked visit's) also leads with its facts, sections and
 * action, and lists `rows` (what the visitor gave, under "Your details") instead of the company's
 * rows; `staffFacts` is what the company's copy leads with (the reference, the state).
 */
export type MailReceipt = {
  subject: string;
  title: string;
  intro: string;
  facts?: MailRow[];
  sections?: MailSection[];
  action?: MailAction;
  rows?: MailRow[];
  staffFacts?: MailRow[];
};

export async function enqueueSubmissionMail(tx: Tx, form: SubmittedForm): Promise<void> {
  const e = env();
  const { id } = form.submission;
  const { photos, noun } = form;
  const rows: MailRow[] = [...form.summary];
  if (photos > 0) {
    rows.push({
      label: "Photos",
      value: `${photos} photo${photos === 1 ? "" : "s"} stored with this request (${form.submission.table} #${id}, uploads table). They are not published on the web; open them with Drizzle Studio.`,
    });
  }
  rows.push({ label: "Sent from", value: `${form.page}${form.clientIp ? ` (IP ${form.clientIp})` : ""}` });

  const company = written({
    title: companyTitle(noun, id),
    intro: companyIntro(form.name, noun, Boolean(form.email)),
    facts: form.receipt?.staffFacts,
    rowsHeading: form.receipt?.staffFacts ? "All the details" : undefined,
    rows,
  });
  const mails: OutgoingMail[] = [
    {
      to: e.COMPANY_INBOX,
      replyTo: form.email,
      subject: companySubject(noun, id, form.name),
      ...company,
      source: form.submission,
    },
  ];

  if (form.email) {
    const receipt = form.receipt;
    const confirmation = written({
      title: receipt?.title ?? "Thank you — we received your message",
      intro:
        receipt?.intro ??
        `${confirmationIntro(form.name, noun)}${form.confirmationNote ? ` ${form.confirmationNote}` : ""}`,
      facts: receipt?.facts,
      sections: receipt?.sections,
      action: receipt?.action,
      rowsHeading: receipt?.rows ? "Your details" : undefined,
      rows: receipt?.rows ?? form.summary,
      footer: visitorFooter(e.COMPANY_INBOX),
    });
    mails.push({
      to: form.email,
      replyTo: e.COMPANY_INBOX,
      subject: form.receipt ? receiptSubject(form.receipt.subject) : confirmationSubject(noun),
      ...confirmation,
      source: form.submission,
      // A confirmation is capped per address and day in enqueueMail: the form cannot become a relay to
      // any address typed in. A receipt follows an approved charge and always goes.
      kind: form.receipt ? "receipt" : "confirmation",
      attachments: form.calendar
        ? [await calendarAttachment(form.calendar, { name: form.name, email: form.email })]
        : undefined,
    });
  }
  await enqueueMail(tx, ...mails);
}

/** A mail's plain text, and what it says for the worker to render as HTML. */
function written(content: SubmissionMail): Pick<OutgoingMail, "text" | "content"> {
  return { text: plainText(content), content };
}
