/**
 * THE payment gateway interface (issue 16, DECISIONS 15). Client-safe: types
 * and constants only; the adapters live in ./sandbox.server.ts and
 * ./authorizenet.server.ts and are chosen by ./gateway.server.ts.
 *
 * Money is integer cents everywhere (12995 is $129.95): never a float, never
 * a decimal string until the one place a processor asks for one.
 *
 * A card crosses this interface once, into `charge`, and never comes back:
 * every result, message, log line and thrown error carries at most the brand
 * and the last four digits (DECISIONS 15 and 29).
 */

export const GATEWAY_NAMES = ["sandbox", "authorizenet"] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];

/** What a visitor typed. Month and year may come straight from a form (strings). */
export type CardInput = {
  /** Digits; spaces and dashes (as the visitor's field groups them) are allowed. */
  number: string;
  /** 1–12. */
  expMonth: number | string;
  /** Four digits, or two (taken as 20YY). */
  expYear: number | string;
  cvc: string;
  /** The cardholder's name as on the card. */
  holder: string;
};

export type ChargeRequest = {
  /** Positive integer cents. */
  amountCents: number;
  currency: "USD";
  /**
   * Names this payment across retries. The gateway derives what it needs from
   * it (the sandbox's transaction id, Authorize.net's 20-character refId); the
   * promise never to charge twice is kept by the payments table's unique key
   * (./payments.server.ts), not by the processor.
   */
  idempotencyKey: string;
  card: CardInput;
  /** Shown to the company in the processor's dashboard ("Residential service 2026-05-02 …"). */
  description: string;
  customer?: { email?: string; ip?: string };
  /** Billing address, passed on for the processor's address check when known. */
  billing?: { address?: string; city?: string; state?: string; zip?: string; country?: string };
  /** The company's invoice number, when paying one. */
  invoiceNumber?: string;
  /**
   * The ledger row this request is (`ledgerReference(id)`: "L123"), set on the processor's
   * transaction (Authorize.net: the order's invoice number; the company's own invoice number then
   * goes into the description) so a charge whose answer was lost can be found by it.
   */
  reference: string;
};

/**
 * The processor's answer to a charge.
 * - approved: the money is taken.
 * - declined: nothing was taken. `reason` says why: `card` (the issuer or the
 *   processor refused this card), `invalid` (the details failed the checks
 *   before anything was sent: number, expiry, CVC), `error` (the processor
 *   refused the request itself: configuration, a malformed request),
 *   `duplicate` (the same request within the processor's duplicate window:
 *   this one took nothing, but the earlier one may have; look it up).
 *   `message` is fit to show the visitor.
 * - unknown: the answer is not known (timeout, a broken or unreadable answer,
 *   a transaction held for review). The money may have been taken: the caller
 *   records the payment as pending and says so, never as paid, and never
 *   tries again on its own (that could charge twice).
 */
export type ChargeResult =
  | { status: "approved"; transactionId: string; brand: string; last4: string }
  | { status: "declined"; reason: "card" | "invalid" | "error" | "duplicate"; message: string }
  | { status: "unknown"; message: string; transactionId?: string };

/**
 * The answer to a void or a refund (same three outcomes). `duplicate`: refused because the same
 * request (same amount, card and reference) was made within the processor's duplicate window:
 * the earlier one arrived, and is looked up rather than counted as a refusal.
 */
export type AdjustResult =
  | { status: "approved"; transactionId: string }
  | { status: "declined"; message: string; duplicate?: true }
  | { status: "unknown"; message: string };

/**
 * A transaction's status as Authorize.net names it (`transactionStatus` of its reporting API); the
 * sandbox uses the same names. A status the site does not know makes the look-up `unknown` (staff look).
 */
export const PROCESSOR_STATUSES = [
  "authorizedPendingCapture",
  "capturedPendingSettlement",
  "settledSuccessfully",
  "refundPendingSettlement",
  "refundSettledSuccessfully",
  "approvedReview",
  "voided",
  "declined",
  "expired",
  "failedReview",
  "FDSPendingReview",
  "FDSAuthorizedPendingReview",
  "underReview",
  "communicationError",
  "generalError",
  "settlementError",
  "couldNotVoid",
  "returnedItem",
] as const;
export type ProcessorStatus = (typeof PROCESSOR_STATUSES)[number];

/** A transaction as the processor holds it (the reconciler's and the audit's look-ups). */
export type ProcessorTransaction = {
  transactionId: string;
  type: "charge" | "void" | "refund";
  /**
   * What the processor's status means for money:
   * - approved: it went through (a charge captured, a refund accepted), settled or not;
   * - declined: nothing moved (declined, expired, failed review, an error, a failed settlement);
   * - voided: a charge cancelled before it settled (no money moved in the end);
   * - review: held for review: pending until the processor decides (never paid, never released).
   */
  status: "approved" | "declined" | "voided" | "review";
  /** The status as the processor names it (Authorize.net's transactionStatus). */
  processorStatus: ProcessorStatus;
  /** A charge or refund that has settled (a charge can then only be refunded, no longer voided). */
  settled: boolean;
  /** The settlement batch the processor names for it (settled, or failed to settle). */
  batchId?: string;
  amountCents: number;
  /** What the site set on it (`ChargeRequest.reference`, or the void's or refund's). */
  reference?: string;
  /** A refund or void: the charge it acts on, when the processor says. */
  parentTransactionId?: string;
  brand?: string;
  last4?: string;
};

/** found: the processor's record; missing: it has none (the request never reached it); unknown: it could not be asked. */
export type LookupResult =
  | { status: "found"; transaction: ProcessorTransaction }
  | { status: "missing" }
  | { status: "unknown"; message: string };

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Authorize and capture in one step. Never throws for a processor's answer (or its absence). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Cancels a charge not yet settled (the same day): no money moves. `reference`: the void's ledger row. */
  void(transactionId: string, reference: string): Promise<AdjustResult>;
  /**
   * Gives back a settled charge (all or part); processors ask for the card's last four.
   * `reference`: the refund's ledger row, set on the refund's transaction so it can be found.
   */
  refund(transactionId: string, amountCents: number, last4: string, reference: string): Promise<AdjustResult>;
  /** The processor's record of one transaction (Authorize.net: getTransactionDetailsRequest). */
  lookup(transactionId: string): Promise<LookupResult>;
  /**
   * The transaction the site made with this reference, when its answer was lost (no transaction
   * id), made no earlier than `since`: the unsettled transactions first
   * (getUnsettledTransactionListRequest), then each batch settled since then
   * (getSettledBatchListRequest, getTransactionListRequest per batch), matched on the invoice
   * number, then that transaction's details. `missing` only when neither holds it.
   */
  findByReference(reference: string, since: Date): Promise<LookupResult>;
  /**
   * Every transaction the processor made since a moment, when it can list them (the sandbox's
   * books): `npm run payments:audit` looks there for money the ledger does not know.
   */
  transactionsSince?(since: Date): Promise<ProcessorTransaction[]>;
}

/** The reference a ledger row sets on its processor request: short, for Authorize.net's 20-character invoice number. */
export const ledgerReference = (ledgerId: number) => `L${ledgerId}`;

/** The visitor-facing texts every adapter shares. */
export const PAYMENT_MESSAGES = {
  declined: "Your card was declined.",
  unknown:
    "We could not confirm your payment with the card processor. Please do not pay again: we will check and contact you.",
  processorError: "The payment could not be processed. Nothing was charged; please try again later.",
  unreachable: "The card processor could not be reached. Nothing was charged; please try again in a few minutes.",
} as const;
