import type { CaptchaBootstrap } from "../captcha/types";

/** What the server hands every lead form's render (./LeadForm.tsx): its captcha, honeypot and submission key. */
export type FormBootstrapData = {
  captcha: CaptchaBootstrap;
  honeypot: { nameFieldName: string; validFromFieldName: string; encryptedValidFrom: string };
  /** This render's submission key: a resubmission of a stored form answers as its success. */
  submissionKey: string;
  /** A paid form: this browser paid with it a moment ago (app/forms/recent-payment.server.ts). */
  recentPayment?: { form: string; path: string } | null;
  /** A paid form: the answer to this browser's post without JavaScript, shown after its 303 (app/forms/posted-answer.server.ts). */
  answer?: unknown;
};
