/** One line of a submission summary: label and value as the visitor gave it. */
export type MailRow = { label: string; value: string };

/** A short part of a mail under its own heading ("What happens next"): one or more paragraphs. */
export type MailSection = { heading: string; paragraphs: string[] };

/** The one thing the reader can do from the mail: a button in HTML, the plain URL in text. */
export type MailAction = { label: string; url: string };

/**
 * What a mail says, in its order: title, intro, the facts (the few lines a person looks for
 * first, shown prominently), the sections, the action, then the rows (under `rowsHeading`) and
 * the footer. Stored as JSON in `outbox.content` and rendered when the mail is sent, so every
 * field added after the first rows were written is optional: an old row still renders.
 */
export type SubmissionMail = {
  /** e.g. "New quote request #12" */
  title: string;
  intro: string;
  /** Label/value lines shown first, in a box: a booking's reference, its day and window, what was paid. */
  facts?: MailRow[];
  sections?: MailSection[];
  action?: MailAction;
  /** The heading over `rows` ("Your details"); without it the rows follow the intro as they always did. */
  rowsHeading?: string;
  rows: MailRow[];
  footer?: string;
};
