import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** An attachment of an outbox mail: text content (an .ics is a few hundred bytes). */
export type MailAttachment = { filename: string; contentType: string; content: string };

/**
 * What a submission's e-mail says (app/mail/templates): the worker renders its
 * HTML from this when it sends the mail, not the request that wrote it.
 */
export type MailContent = { title: string; intro: string; rows: { label: string; value: string }[]; footer?: string };

/** 'pending' until it is sent; 'failed' once its job has used up its attempts (MAIL_MAX_ATTEMPTS). */
export type OutboxStatus = "pending" | "sent" | "failed";
/** 'receipt': a paid form's receipt to the payer, always written (a charge went through; not capped as confirmations are). */
export type OutboxKind = "company" | "confirmation" | "receipt";

/**
 * Outgoing e-mail (DECISIONS 20), written in the submission's transaction
 * with a pg-boss job that names it (db/queue.server.ts); the worker
 * (app/mail/worker.server.ts) sends it and records here what happened. The
 * row is the mail's record for staff: what went to whom, when, and why not.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: serial("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    to: text("to").notNull(),
    /**
     * The mailbox `to` delivers to (app/mail/mailbox.ts: lower case, no +tag,
     * Gmail without dots): what the confirmation cap counts. Written by
     * enqueueMail; rows from before migration 0010 have lower(to).
     */
    mailbox: text("mailbox"),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** A submission's mail: its HTML is rendered from this at send time (html stays null). Cleared with the body. */
    content: jsonb("content").$type<MailContent>(),
    status: text("status").$type<OutboxStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    sourceTable: text("source_table"),
    sourceId: integer("source_id"),
    /** 'company' (the company copy) or 'confirmation' (to the visitor: capped per address per day). */
    kind: text("kind").$type<OutboxKind>().notNull().default("company"),
    /** When the body was cleared after MAIL_RETENTION_DAYS (the row and its status stay). */
    clearedAt: timestamp("cleared_at", { withTimezone: true }),
    /** Files sent with the mail (a booking's .ics invitation): small text parts, cleared with the body. */
    attachments: jsonb("attachments").$type<MailAttachment[]>(),
  },
  (t) => [
    // The confirmation cap counts a mailbox's confirmations of the last 24 hours (app/mail/outbox.server.ts).
    index("outbox_mailbox_idx").on(t.kind, t.mailbox, t.createdAt),
    // The hourly clearing of bodies past their retention (clearSentBodies): only the rows whose body
    // is still kept, so each stays as small as MAIL_RETENTION_DAYS of mail however many years the
    // table holds (docs/decisions/073-background-statements-use-indexes.md).
    index("outbox_sent_body_idx")
      .on(t.sentAt)
      .where(sql`${t.status} = 'sent' and ${t.clearedAt} is null`),
    index("outbox_failed_body_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'failed' and ${t.clearedAt} is null`),
  ],
);
