import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  uuid,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/**
 * Lead capture (issue 4): one table per form, the uploads they carry, the
 * outgoing mail (outbox), per-IP rate-limit counters and spent captcha tokens.
 * Every submission, its uploads and its mail are written in one transaction
 * (app/forms/pipeline.server.ts).
 */

/** Raw bytes. postgres-js hands back a Buffer, PGlite a Uint8Array: both are Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer)),
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** SPEC §3 Contact submission. `page` is the path the form was sent from. */
export const contactSubmissions = pgTable("contact_submissions", {
  id: serial("id").primaryKey(),
  createdAt: createdAt(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  details: text("details").notNull(),
  page: text("page"),
  clientIp: text("client_ip"),
});

/**
 * SPEC §3 Quote request. source 'full' = /request-quote (photos allowed),
 * 'simple' = the form embedded on product pages (DECISIONS 9).
 */
export const quoteRequests = pgTable(
  "quote_requests",
  {
    id: serial("id").primaryKey(),
    createdAt: createdAt(),
    source: text("source").$type<"full" | "simple">().notNull(),
    quoteType: text("quote_type").$type<"Residential" | "Commercial">(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    zip: text("zip").notNull(),
    description: text("description"),
    contactMethod: text("contact_method").notNull(),
    quoteFor: text("quote_for")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    financing: text("financing").notNull(),
    consultation: text("consultation").notNull(),
    startTime: text("start_time").notNull(),
    existingCustomer: text("existing_customer"),
    businessName: text("business_name"),
    page: text("page"),
    clientIp: text("client_ip"),
  },
  (t) => [index("quote_requests_created_idx").on(t.createdAt)],
);

/**
 * SPEC §3 Service request. kind 'commercial' now; 'residential' (card payment)
 * arrives with the payments issue, which fills the nullable payment columns.
 * A card number or CVC is never stored (DECISIONS 15).
 */
export const serviceRequests = pgTable(
  "service_requests",
  {
    id: serial("id").primaryKey(),
    createdAt: createdAt(),
    kind: text("kind").$type<"commercial" | "residential">().notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    address1: text("address1").notNull(),
    address2: text("address2"),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    country: text("country").notNull(),
    serviceDate: date("service_date", { mode: "string" }).notNull(),
    serviceTime: text("service_time").notNull(),
    description: text("description"),
    contactMethod: text("contact_method").notNull(),
    /** Residential bookings: the amount charged (the server's price, SPEC §9), in cents. */
    totalCents: integer("total_cents"),
    /** Residential bookings: 'paid' (approved) or 'pending' (the processor's answer is unknown; staff confirm it). */
    paymentStatus: text("payment_status").$type<"paid" | "pending">(),
    /** Residential bookings: the payments row (brand and last four only; never the card). */
    paymentId: integer("payment_id"),
    paymentTransactionId: text("payment_transaction_id"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    page: text("page"),
    clientIp: text("client_ip"),
  },
  (t) => [
    index("service_requests_created_idx").on(t.createdAt),
    // Availability counts a slot's residential bookings (app/payments/availability.server.ts).
    index("service_requests_slot_idx")
      .on(t.serviceDate, t.serviceTime)
      .where(sql`${t.kind} = 'residential'`),
  ],
);

/**
 * A place in a residential service slot held while the visitor's card is
 * being charged (issue 16 item 3): taken under the slot's lock before the
 * processor is asked, removed in the booking's own transaction (or when the
 * card is refused), and ignored once expired (a process that died mid-charge).
 * Keyed by the form render's submission key, so a double click holds one place.
 */
export const serviceSlotHolds = pgTable(
  "service_slot_holds",
  {
    key: text("key").primaryKey(),
    serviceDate: date("service_date", { mode: "string" }).notNull(),
    serviceTime: text("service_time").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("service_slot_holds_slot_idx").on(t.serviceDate, t.serviceTime, t.expiresAt)],
);

/** SPEC §3 Promo request (/discount-signup-2025). */
export const promoSignups = pgTable("promo_signups", {
  id: serial("id").primaryKey(),
  createdAt: createdAt(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull(),
  product: text("product").notNull(),
  clientIp: text("client_ip"),
});

/**
 * SPEC §3 Employment application. The SSN is stored only encrypted
 * (AES-256-GCM, DECISIONS 17; app/lib/crypto.server.ts).
 */
export const employmentApplications = pgTable("employment_applications", {
  id: serial("id").primaryKey(),
  createdAt: createdAt(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  middleInitial: text("middle_initial"),
  address: text("address").notNull(),
  address2: text("address2"),
  city: text("city").notNull(),
  state: text("state").notNull(),
  zip: text("zip").notNull(),
  phone: text("phone").notNull(),
  email: text("email").notNull(),
  dateAvailable: date("date_available", { mode: "string" }).notNull(),
  ssnEncrypted: text("ssn_encrypted").notNull(),
  /** Random per-row id bound into the SSN's ciphertext (GCM associated data): a value moved to another row does not decrypt. */
  secretRef: uuid("secret_ref").notNull().defaultRandom(),
  desiredSalary: text("desired_salary").notNull(),
  position: text("position").notNull(),
  usCitizen: boolean("us_citizen").notNull(),
  authorized: boolean("authorized").notNull(),
  workedBefore: boolean("worked_before").notNull(),
  workedWhen: text("worked_when"),
  convicted: boolean("convicted").notNull(),
  convictionExplanation: text("conviction_explanation"),
  education: text("education").notNull(),
  qualificationStatement: text("qualification_statement").notNull(),
  clientIp: text("client_ip"),
});

/**
 * Files sent with a submission, checked by their bytes (images only). Linked
 * to their row by table name and id; never served publicly.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: serial("id").primaryKey(),
    createdAt: createdAt(),
    submissionTable: text("submission_table").notNull(),
    submissionId: integer("submission_id").notNull(),
    field: text("field").notNull(),
    fileName: text("file_name").notNull(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [index("uploads_submission_idx").on(t.submissionTable, t.submissionId)],
);

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
    createdAt: createdAt(),
    to: text("to").notNull(),
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
    // The confirmation cap counts an address's confirmations case-insensitively (app/mail/outbox.server.ts).
    index("outbox_recipient_idx").on(t.kind, sql`lower(${t.to})`, t.createdAt),
  ],
);

/** Fixed-window counters per key (form + client IP), shared by every instance. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
    /** End of the window: the row is pruned once it has passed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_expires_idx").on(t.expiresAt)],
);

/**
 * One row per committed submission, keyed by the submission key its form
 * carried (a hidden field made per render). A resubmission after an uncertain
 * answer (a timeout, a 503 sent after the commit) finds its row and is
 * answered as the success it was, instead of being stored twice.
 */
export const submissionKeys = pgTable(
  "submission_keys",
  {
    key: text("key").primaryKey(),
    form: text("form").notNull(),
    submissionTable: text("submission_table").notNull(),
    submissionId: integer("submission_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("submission_keys_created_idx").on(t.createdAt)],
);

/** Captcha tokens already used (hash only), kept until they would expire anyway. */
export const captchaSpent = pgTable("captcha_spent", {
  tokenHash: text("token_hash").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
