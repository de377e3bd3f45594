import type { SubmissionResult } from "@conform-to/react";
import type { z } from "~/lib/zod";
import type { Database, Tx } from "@db/client.server";
import type { MailRow } from "~/mail/render.server";
import type { CalendarInvite, MailReceipt } from "~/mail/submission-mail.server";
import type { PaidCommand, PayOptions } from "~/payments/command.server";
import type { PaymentOutcome } from "~/payments/payments.server";
import type { RateLimitRule } from "~/http/rate-limit.server";
import type { AcceptedUpload, UploadRule } from "~/http/read-body.server";

/**
 * What a form is to the pipeline (./run.server.ts): its identity (id, upload rule, secret
 * fields: `../<form>/identity.ts`, which its Form.tsx reads too), its schema, its `handle` (its
 * table) and, for a paid form, its payment. Nothing else is copied per form.
 */
export type FormDefinition<Schema extends z.ZodType = z.ZodType, H = unknown> = {
  /** Stable id ('contact', 'quote', …), also the rate-limit bucket. */
  id: string;
  /** What it is, for e-mail subjects: "contact message", "quote request". */
  noun: string;
  schema: Schema;
  uploads?: UploadRule;
  successMessage: string;
  /** Never sent back (not re-rendered, not in hydration data, never cached): an SSN, a card number, a CVC. */
  secretFields?: readonly string[];
  /** Shown under the message of a refused post that carried secret fields: they must be typed again. */
  secretsNotice?: string;
  /** The commercial service form keeps its values after success (SPEC §4). */
  keepValuesOnSuccess?: boolean;
  rateLimit?: RateLimitRule;
  /**
   * "link": a form on a private link's page (a booking's /booking/{token}), whose unguessable
   * token is its guard: no honeypot, fill time or captcha (the visitor proved nothing to get there
   * but the link). Default: the public forms' bot rules.
   */
  guard?: "link";
  /** A paid form: charged once per submission key before the transaction (./paid.server.ts). */
  payment?: FormPayment<z.output<Schema>, H>;
  /**
   * A no-JS "Show price" button: a post carrying it is re-rendered with nothing stored or charged,
   * and nothing checked but what `check` returns (errors beside their fields, e.g. the booking's ZIP).
   */
  preview?: { field: string; value: string; check?(fields: FormData): Promise<Record<string, string[]>> };
  handle(tx: Tx, value: z.output<Schema>, ctx: SubmissionContext<H>): Promise<Handled>;
  /** More of the API's answer for a stored submission, now or on a resubmitted key (the checkout's order_id, total). */
  apiFields?(db: Database, submissionId: number, request: Request): Promise<Record<string, unknown> | undefined>;
};

/**
 * A paid form's charge: its paid command (app/payments/command.server.ts), refused by a
 * `FormFailure`, and where the visitor reads the outcome.
 */
export type FormPayment<V, H = unknown> = PaidCommand<V, H, FormFailure> & {
  /** Where the visitor reads the outcome after success (redirect-after-post), by payment id. */
  receiptPath?(paymentId: number): string;
  /** Where a stored post is answered whatever it charged (a move: the booking's page), given the request. */
  answerPath?(request: Request): string;
  /** Said when a refused charge comes without the processor's message (default PAYMENT_DECLINED_MESSAGE). */
  declinedMessage?: string;
};

export type SubmissionContext<H = unknown> = {
  request: Request;
  clientIp: string | null;
  /** Path the form was sent to (its page, or the API path). */
  page: string;
  uploads: AcceptedUpload[];
  /** True for /api/store/* JSON routes. */
  api: boolean;
  /** Paid forms: the charge, answered before the transaction: 'approved', or 'pending' (unknown: never call it paid). None when nothing was charged (a move that costs less). */
  payment?: PaymentOutcome;
  /** The clock the form was judged by (tests set it). */
  now: Date;
  /** Paid forms: the charge's idempotency key, which also names what `reserve` held. */
  paymentKey?: string;
  /** Paid forms with `reserve`: what it held. */
  hold?: H;
};

export type Handled = {
  submission: { table: string; id: number };
  /** The company copy's label/value rows (leave out or mask anything secret). */
  summary: MailRow[];
  /** Name shown in the subject line, e.g. "Jane Doe". */
  name: string;
  /** The visitor's address, for Reply-To and the confirmation. */
  email?: string;
  /** Extra sentence in the visitor's confirmation. */
  confirmationNote?: string;
  /** The success message, when it differs from the definition's. */
  message?: string;
  /** After success, go here (HTML) / report it (API). */
  redirectTo?: string;
  /** A paid form's visitor e-mail is a receipt: its subject, title and first sentence. */
  receipt?: MailReceipt;
  /** A booked visit: the visitor's e-mail carries its calendar invitation (.ics). */
  calendar?: CalendarInvite;
  /** The handler wrote its own mails (a booking's move): none from the submission's template. */
  ownMails?: true;
};

/** Thrown by a handler (or returned by `reserve`) to roll back and answer with this message (and field errors). */
export class FormFailure extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly status = 400,
    /** cardless: no card can fix it (an address outside the service area); the page does not ask for the card again. */
    readonly options: { cardless?: boolean } = {},
  ) {
    super(message);
    this.name = "FormFailure";
  }
}

export type FormOutcome = {
  ok: boolean;
  status: number;
  message: string;
  fieldErrors: Record<string, string[]>;
  /** Conform's result: errors beside their fields, values kept (or reset). */
  reply: SubmissionResult<string[]> | null;
  redirectTo?: string;
  submissionId?: number;
  headers?: Record<string, string>;
  /** The answer to a "Show price" post (FormDefinition.preview). */
  preview?: boolean;
  /** A second line under a refusal's message (FormDefinition.secretsNotice). */
  notice?: string;
  /** A refusal no card can fix (FormFailure's cardless): the card's notice is not said. */
  cardless?: boolean;
  /** The upload field whose chosen photos a refused post's page cannot keep (HTML posts). */
  photosDropped?: string;
  /** FormDefinition.apiFields of a stored submission (API answers only). */
  apiFields?: Record<string, unknown>;
  /** An HTML post that was answered (refused or failed) rather than dropped: its re-send is a person's. */
  answered?: boolean;
  /** The processor refused the charge (declined, or failed before anything was taken): the render may be sent again with another card. */
  paymentRefused?: boolean;
};

export type RunOptions = {
  /** The database (tests pass their own); defaults to the server's. */
  db?: Database;
  /** Values that win over the body (e.g. quote_type from the API path). */
  overrides?: Record<string, string>;
  /** Normalised URL of the request (React Router's `url` argument). */
  url?: URL;
  api?: boolean;
  /** The visitor's IP as the server determined it (the load context's clientIpContext). */
  clientIp?: string | null;
} & PayOptions;

export type { PayOptions };
