/** One line of a submission summary: label and value as the visitor gave it. */
export type MailRow = { label: string; value: string };

export type SubmissionMail = {
  /** e.g. "New quote request #12" */
  title: string;
  intro: string;
  rows: MailRow[];
  footer?: string;
};
