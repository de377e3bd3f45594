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
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Lead capture (issue 4): one table per form, the uploads they carry and the
 * submission keys. Every submission, its uploads and its mail (./mail.ts) are
 * written in one transaction (app/forms/pipeline/).
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
    /** Residential bookings: the short reference visitors and staff use (DV-7K3M-Q9): random, never the row id. */
    reference: text("reference"),
    /** Residential bookings: SHA-256 of the manage link's token (/booking/{token}); the token itself is never stored. */
    manageTokenHash: text("manage_token_hash"),
    /** Residential bookings: booked, rescheduled, cancelled, or cancellation pending (a refund not confirmed). */
    bookingStatus: text("booking_status").$type<BookingStatus>(),
  },
  (t) => [
    uniqueIndex("service_requests_reference_idx").on(t.reference),
    uniqueIndex("service_requests_manage_token_idx").on(t.manageTokenHash),
    index("service_requests_created_idx").on(t.createdAt),
    // Availability counts a slot's residential bookings (app/payments/availability.server.ts).
    index("service_requests_slot_idx")
      .on(t.serviceDate, t.serviceTime)
      .where(sql`${t.kind} = 'residential'`),
    // The booking receipt finds its booking by the payment (app/booking/form/receipt.server.ts); only
    // paid bookings have one (docs/decisions/073-background-statements-use-indexes.md).
    index("service_requests_payment_idx")
      .on(t.paymentId)
      .where(sql`${t.paymentId} is not null`),
  ],
);

export type BookingStatus = "booked" | "rescheduled" | "cancelled" | "cancellation pending";

/**
 * What happened to a residential booking, one row per change, for the manage page's history and
 * for staff in Studio: booked, rescheduled (from → to, the difference charged or refunded),
 * cancelled (refunded or voided), cancellation pending (the refund not confirmed), reminder sent.
 */
export const bookingEvents = pgTable(
  "booking_events",
  {
    id: serial("id").primaryKey(),
    serviceRequestId: integer("service_request_id").notNull(),
    createdAt: createdAt(),
    kind: text("kind").notNull(),
    fromDate: date("from_date", { mode: "string" }),
    fromTime: text("from_time"),
    toDate: date("to_date", { mode: "string" }),
    toTime: text("to_time"),
    /** Money moved by this change, in cents: charged (positive) or given back (negative). */
    amountCents: integer("amount_cents"),
    paymentId: integer("payment_id"),
    note: text("note"),
    /** The change's key (a move's render, a cancel): its ledger rows' idempotency keys begin with it. */
    changeKey: text("change_key"),
  },
  (t) => [index("booking_events_booking_idx").on(t.serviceRequestId, t.createdAt)],
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

/** 'running': a post of this render is between its captcha and its answer; 'refused': its last post was refused. */
export type SubmissionClaimState = "running" | "refused";

/**
 * Which post of a paid form's render is being answered (app/forms/submission-keys.server.ts):
 * taken before the captcha is spent, so a second post of the same render (a double click)
 * finds it and waits for the first one's outcome instead of answering "Please complete the
 * CAPTCHA." while the first charges. A refused post leaves its status and message for such a twin.
 */
export const submissionClaims = pgTable(
  "submission_claims",
  {
    key: text("key").primaryKey(),
    form: text("form").notNull(),
    state: text("state").$type<SubmissionClaimState>().notNull(),
    /** The refusal's HTTP status and message, read by a twin that waited for it. */
    status: integer("status"),
    message: text("message"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The hourly prune finds the claims older than a day by it (docs/decisions/073-background-statements-use-indexes.md).
  (t) => [index("submission_claims_updated_idx").on(t.updatedAt)],
);

/**
 * A paid form's answer to a post sent without JavaScript, kept for the GET its 303 leads to
 * (issue 38 item 4, app/forms/posted-answer.server.ts): a refusal ("declined", "full"), or "Show
 * price", with the visitor's values to put back (never the card number, CVC or SSN: DECISIONS 29).
 * Back after a later success then reaches that GET, which asks the server again and shows what is
 * true now, never a cached copy of the stale paid form. Read only by the browser whose cookie
 * holds the id, on the address it was posted to; pruned after an hour.
 */
export const postedAnswers = pgTable(
  "posted_answers",
  {
    id: text("id").primaryKey(),
    form: text("form").notNull(),
    /**
     * SHA-256 of the path and query the form was posted to, which the 303 leads back to (a
     * booking's address carries its secret token, which is kept nowhere in clear).
     */
    pathHash: text("path_hash").notNull(),
    answer: jsonb("answer").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("posted_answers_created_idx").on(t.createdAt)],
);
