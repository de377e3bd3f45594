import { createHash } from "node:crypto";
import { isIPv4 } from "node:net";
import { z } from "~/lib/zod";
import { log } from "~/lib/log.server";
import { brandName, cardDigits, checkCharge, type CardCheck } from "./card";
import {
  PAYMENT_MESSAGES,
  type AdjustResult,
  type ChargeRequest,
  type ChargeResult,
  type LookupResult,
  type PaymentGateway,
  type ProcessorStatus,
  type ProcessorTransaction,
} from "./gateway";
import { assertCents, centsToDecimal, parseDollars } from "./money";
import { scrubCardNumbers } from "./redact";

/**
 * Authorize.net through its JSON API (PAYMENT_GATEWAY=authorizenet): one POST
 * of `createTransactionRequest` per charge (`authCaptureTransaction`), void
 * (`voidTransaction`) or refund (`refundTransaction`); the look-ups through the
 * Transaction Details API (`getTransactionDetailsRequest` by transaction id;
 * for a reference, `getUnsettledTransactionListRequest`, then
 * `getSettledBatchListRequest` and `getTransactionListRequest` per batch, then
 * the match's details). The Transaction Details API must be enabled in the
 * merchant interface (Account → Settings → Transaction Details API); until it
 * is, every look-up answers `unknown`.
 *
 * What the API does that matters here:
 * - The JSON is a transliteration of the XML schema, so element ORDER inside
 *   each object is significant (the XSD's sequence); the builders below keep it.
 *   It is then validated as XML: a text longer than the field's maxLength (in
 *   characters), or holding a character XML cannot carry, refuses the whole
 *   request, so texts are sent as one line and cut (see `cut`).
 *   app/payments/authorizenet-schema.server.test.ts checks every body.
 * - Its answers begin with a UTF-8 byte-order mark, which JSON.parse refuses: stripped.
 * - `messages.resultCode` is "Ok" or "Error" for the request as a whole;
 *   `transactionResponse.responseCode` is 1 approved, 2 declined, 3 error,
 *   4 held for review. A decline comes with resultCode "Error" (E00027) AND
 *   responseCode 2, so the transaction's code is read first.
 * - `refId` (at most 20 characters) is only echoed back: Authorize.net has no
 *   idempotency key. The payments table's unique key is what prevents a
 *   second charge; the refId, derived from our key, lets staff find the
 *   attempt in the merchant dashboard when its outcome was unknown.
 * - The ledger row's reference ("L123") is the order's `invoiceNumber` on a
 *   charge and on a refund (the only field the unsettled transaction list
 *   returns that we set), so a transaction whose answer was lost can be found
 *   by it; the company's own invoice number, when paying one, goes into the
 *   order's description instead. A void names no order (it acts on the
 *   charge's own transaction, which then reads `voided`).
 *
 * Outcomes: approved only for resultCode Ok + responseCode 1 + a transaction
 * id. Declined for a decline (2), an error (3), or a request refused as a
 * whole (resultCode Error without a transaction: bad credentials, malformed
 * request), and when the endpoint could not be reached at all (no connection:
 * nothing was sent). Unknown for everything else: a timeout, an HTTP error,
 * an answer that is not JSON or not this shape, held for review (4), an
 * approval without a transaction id. An unknown answer may hide a charge: the
 * caller records it as pending and never retries on its own. A duplicate
 * refusal (3, reason 11) is declined with reason `duplicate` (a void or refund:
 * `duplicate: true`): this request took nothing, an identical earlier one
 * arrived, and the caller looks that one up.
 *
 * Look-ups: `found` with the transaction as the processor holds it (its
 * transactionStatus read as status and settled, below, and kept by name; held
 * for review is `review`); `missing` when it answers E00040 (no such record)
 * or neither the unsettled list nor a batch settled since the moment asked
 * holds a transaction with the reference; `unknown` when it could not be
 * asked (no answer, an error answer, an unreadable one), could not be searched
 * to the end within the bounds below, or names a status this code does not
 * know. The settled batches matter: an answer lost before the day's cut-off
 * and looked up after it is only found there.
 *
 * The card number and CVC go into the request body and nowhere else: never
 * into a log line, a result or an error (errors are caught and replaced).
 */

export const AUTHORIZENET_ENDPOINTS = {
  sandbox: "https://apitest.authorize.net/xml/v1/request.api",
  production: "https://api.authorize.net/xml/v1/request.api",
} as const;

export type AuthorizeNetOptions = {
  loginId: string;
  transactionKey: string;
  endpoint: string;
  /** How long to wait for an answer before calling the outcome unknown. */
  timeoutMs?: number;
  now?: () => Date;
};

export const DEFAULT_TIMEOUT_MS = 20_000;

/** Authorize.net's refId: at most 20 characters; derived, so every instance names a retry the same. */
export function authorizeNetRefId(idempotencyKey: string): string {
  return createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 20);
}

/** The schema's maxLength of each text field sent (the API refuses a longer value: it is cut here). */
const LIMITS = {
  firstName: 50,
  lastName: 50,
  address: 60,
  city: 40,
  state: 40,
  zip: 20,
  country: 60,
  email: 255,
  description: 255,
  invoiceNumber: 20,
};
/**
 * What XML 1.0 cannot carry, or a one-line field should not: control characters (tab and line
 * breaks too), line and paragraph separators, and the two noncharacters XML refuses.
 */
const UNSENDABLE = /[\p{Cc}\p{Zl}\p{Zp}\uFFFE\uFFFF]/gu;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** A text as one line the API can take: those characters as spaces, half a surrogate pair as U+FFFD, spaces collapsed. */
function oneLine(value: string): string {
  return value
    .replace(/\p{Cs}/gu, "\uFFFD")
    .replace(UNSENDABLE, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A text field as the schema takes it: one line, at most `max` characters. The schema counts code
 * points, not UTF-16 units, and the cut falls between whole characters (an emoji is never halved).
 */
function cut(value: string | undefined, max: number): string | undefined {
  if (!value) return undefined;
  let text = "";
  let length = 0;
  for (const { segment } of graphemes.segment(oneLine(value))) {
    const size = [...segment].length;
    if (length + size > max) break;
    text += segment;
    length += size;
  }
  return text.trim() || undefined;
}

/**
 * The visitor's IPv4 address, unwrapped from IPv6's ::ffff: form. The schema's customerIP is any
 * string, but the API documents IPv4 (at most 15 characters): an IPv6 address is left out, not refused.
 */
function customerIp(ip: string | undefined): string | undefined {
  const address = ip?.trim().replace(/^::ffff:/i, "");
  return address && isIPv4(address) ? address : undefined;
}

/** Authorize.net's accountType → the brand names card.ts uses. */
const ACCOUNT_TYPES: Record<string, string> = {
  Visa: "visa",
  MasterCard: "mastercard",
  AmericanExpress: "american-express",
  Discover: "discover",
  JCB: "jcb",
  DinersClub: "diners-club",
};

/**
 * Response reason codes (responseCode 3) whose text speaks to the cardholder
 * ("The credit card has expired."); the others are about the merchant's
 * account or our request and are replaced by a general message.
 */
const CARDHOLDER_ERROR_CODES = new Set(["5", "6", "7", "8", "17", "28", "37", "78"]);

/**
 * "A duplicate transaction has been submitted." (responseCode 3, reason 11): the same request was
 * made within the duplicate window, so an earlier one arrived: never a plain refusal.
 */
const DUPLICATE_CODE = "11";
const isDuplicate = (data: AnetResponse) =>
  data.transactionResponse?.responseCode === "3" &&
  (data.transactionResponse.errors ?? []).some((e) => e.errorCode === DUPLICATE_CODE);

/** What every answer carries: the request's result as a whole. */
const baseSchema = z.object({
  refId: z.string().optional(),
  messages: z.object({
    resultCode: z.enum(["Ok", "Error"]),
    message: z.array(z.object({ code: z.string(), text: z.string() })).optional(),
  }),
});
type AnetBase = z.infer<typeof baseSchema>;

const responseSchema = baseSchema.extend({
  transactionResponse: z
    .object({
      responseCode: z.string().optional(),
      transId: z.string().optional(),
      accountNumber: z.string().optional(),
      accountType: z.string().optional(),
      messages: z.array(z.object({ code: z.string(), description: z.string() })).optional(),
      errors: z.array(z.object({ errorCode: z.string(), errorText: z.string() })).optional(),
    })
    .optional(),
});
type AnetResponse = z.infer<typeof responseSchema>;

/** An amount as the reporting API writes it: a JSON number (250.5) or, in some answers, a string. */
const amountSchema = z.union([z.number(), z.string()]).optional();

/** getTransactionDetailsResponse: the members read here (the rest is ignored). */
const detailsSchema = baseSchema.extend({
  transaction: z
    .object({
      transId: z.string(),
      refTransId: z.string().optional(),
      transactionType: z.string(),
      transactionStatus: z.string(),
      authAmount: amountSchema,
      settleAmount: amountSchema,
      order: z.object({ invoiceNumber: z.string().optional() }).optional(),
      batch: z.object({ batchId: z.union([z.string(), z.number()]).optional() }).optional(),
      payment: z
        .object({
          creditCard: z.object({ cardNumber: z.string().optional(), cardType: z.string().optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
});
type AnetDetails = NonNullable<z.infer<typeof detailsSchema>["transaction"]>;

/** A card that passed the checks before a charge: brand, last four and expiry. */
type CheckedCard = Extract<CardCheck, { ok: true }>;

/** getUnsettledTransactionListResponse and getTransactionListResponse: each transaction's summary (an empty list leaves `transactions` out). */
const summarySchema = z.object({
  transId: z.string(),
  submitTimeUTC: z.string().optional(),
  invoiceNumber: z.string().optional(),
});
type AnetSummary = z.infer<typeof summarySchema>;
const listSchema = baseSchema.extend({
  transactions: z
    .union([z.array(summarySchema), z.object({ transaction: z.array(summarySchema) })])
    .optional()
    .nullable(),
});

/** The outcome of one POST: the parsed answer, or why there is none. */
type Exchange<T extends AnetBase = AnetResponse> =
  { kind: "answer"; data: T } | { kind: "unreachable"; detail: string } | { kind: "unknown"; detail: string };

/** getSettledBatchListResponse: the batches settled in the window asked (none leaves `batchList` out). */
const batchSchema = z.object({
  batchId: z.union([z.string(), z.number()]),
  settlementTimeUTC: z.string().optional(),
});
type AnetBatch = z.infer<typeof batchSchema>;
const batchListSchema = baseSchema.extend({
  batchList: z
    .union([z.array(batchSchema), z.object({ batch: z.array(batchSchema) })])
    .optional()
    .nullable(),
});

/** A transaction list is read in pages of this many (the API's largest), newest first, at most LIST_PAGES pages. */
export const LIST_PAGE_SIZE = 1000;
export const LIST_PAGES = 5;

/**
 * Settled batches are listed a window at a time: Authorize.net refuses a span of more than 31
 * days, and 30 keeps clear of how it counts the last one. At most SETTLED_WINDOWS windows (about a
 * year) and SETTLED_BATCHES batches are searched, newest first: further back answers `unknown`.
 */
export const SETTLEMENT_WINDOW_DAYS = 30;
export const SETTLED_WINDOWS = 12;
export const SETTLED_BATCHES = 100;
const DAY_MS = 86_400_000;

/**
 * transactionStatus → what it means for money. Every name Authorize.net documents is here (the
 * type says so); one it adds later is not guessed at: the look-up answers `unknown` and staff look.
 */
const TRANSACTION_STATUSES: Record<ProcessorStatus, { status: ProcessorTransaction["status"]; settled: boolean }> = {
  authorizedPendingCapture: { status: "approved", settled: false },
  capturedPendingSettlement: { status: "approved", settled: false },
  approvedReview: { status: "approved", settled: false },
  settledSuccessfully: { status: "approved", settled: true },
  refundPendingSettlement: { status: "approved", settled: false },
  refundSettledSuccessfully: { status: "approved", settled: true },
  voided: { status: "voided", settled: false },
  declined: { status: "declined", settled: false },
  // An authorization that lapsed uncaptured: nothing moved.
  expired: { status: "declined", settled: false },
  failedReview: { status: "declined", settled: false },
  communicationError: { status: "declined", settled: false },
  generalError: { status: "declined", settled: false },
  settlementError: { status: "declined", settled: false },
  couldNotVoid: { status: "declined", settled: false },
  returnedItem: { status: "declined", settled: false },
  // Held by the fraud filters or for review: neither paid nor released until the processor decides.
  FDSPendingReview: { status: "review", settled: false },
  FDSAuthorizedPendingReview: { status: "review", settled: false },
  underReview: { status: "review", settled: false },
};
const isProcessorStatus = (name: string): name is ProcessorStatus => Object.hasOwn(TRANSACTION_STATUSES, name);

const TRANSACTION_TYPES: Record<string, ProcessorTransaction["type"]> = {
  authCaptureTransaction: "charge",
  captureOnlyTransaction: "charge",
  priorAuthCaptureTransaction: "charge",
  authOnlyTransaction: "charge",
  refundTransaction: "refund",
  voidTransaction: "void",
};

/** Authorize.net's transaction and batch ids are digits (its numericString): anything else (a sandbox id) was never its. */
const isTransactionId = (id: string) => /^\d{1,20}$/.test(id) && !/^0+$/.test(id);
const NOT_OURS = "Not a transaction of this card processor: nothing was sent.";

/** "The record cannot be found." (getTransactionDetailsRequest for an id the account never had). */
const RECORD_NOT_FOUND = "E00040";

/** The look-ups' texts for whoever reads an `unknown` (staff, the reconciler's log); never a visitor. */
export const LOOKUP_MESSAGES = {
  noAnswer: "The card processor could not be asked: no usable answer.",
  refused: "The card processor refused the look-up (is the Transaction Details API enabled?).",
  unreadable: "The card processor's record could not be read.",
  status: "The card processor holds the transaction in a status the site does not know.",
  tooMany: "Too many transactions or settlement batches to search them all for the reference.",
} as const;

/** Connection-phase failures: the request never left, so nothing was charged. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** What every request of one gateway shares: its options, its clock and its credentials. */
type AnetContext = {
  options: AuthorizeNetOptions;
  timeoutMs: number;
  now: () => Date;
  merchantAuthentication: { name: string; transactionKey: string };
};

export function createAuthorizeNetGateway(options: AuthorizeNetOptions): PaymentGateway {
  const context: AnetContext = {
    options,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    now: options.now ?? (() => new Date()),
    merchantAuthentication: { name: options.loginId, transactionKey: options.transactionKey },
  };
  return {
    name: "authorizenet",
    charge: (request: ChargeRequest) => charge(context, request),
    void: (transactionId: string) => voidCharge(context, transactionId),
    refund: (transactionId: string, amountCents: number, last4: string, reference: string) =>
      refund(context, transactionId, amountCents, last4, reference),
    lookup: (transactionId: string) => lookup(context, transactionId),
    findByReference: (reference: string, since: Date) => findByReference(context, reference, since),
  };
}

/** Sends one request to the endpoint and reads its answer, or says why there is none. */
function post(context: AnetContext, body: unknown, refId: string | undefined, action: string): Promise<Exchange>;
function post<T extends AnetBase>(
  context: AnetContext,
  body: unknown,
  refId: string | undefined,
  action: string,
  schema: z.ZodType<T>,
): Promise<Exchange<T>>;
async function post(
  context: AnetContext,
  body: unknown,
  refId: string | undefined,
  action: string,
  schema: z.ZodType<AnetBase> = responseSchema,
): Promise<Exchange<AnetBase>> {
  const sent = await send(context, body, refId, action);
  if ("kind" in sent) return sent;
  const { response, bytes } = sent;
  if (!response.ok) {
    log.warn(
      { processor: "authorizenet", action, refId, httpStatus: response.status },
      "card processor answered an HTTP error",
    );
    return { kind: "unknown", detail: `HTTP ${response.status}` };
  }
  return readAnswer(bytes, schema, refId, action);
}

/** POSTs the body and returns the response with its bytes, or an unreachable or unknown outcome when that fails. */
async function send(
  context: AnetContext,
  body: unknown,
  refId: string | undefined,
  action: string,
): Promise<{ response: Response; bytes: ArrayBuffer } | Exchange<never>> {
  let response: Response;
  let bytes: ArrayBuffer;
  try {
    response = await fetch(context.options.endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(context.timeoutMs),
    });
    bytes = await response.arrayBuffer();
  } catch (error) {
    // Only the error's name and code are kept: never its text, which a
    // library could one day fill with the request it failed to send.
    const name = (error as Error)?.name ?? "Error";
    const code = ((error as { cause?: { code?: unknown } })?.cause?.code ?? "") as string;
    const detail = `${name}${code ? ` ${code}` : ""}`;
    log.warn(
      { processor: "authorizenet", action, refId, error: detail, timeoutMs: context.timeoutMs },
      "card processor request failed",
    );
    if (name !== "TimeoutError" && name !== "AbortError" && NOT_SENT_CODES.has(code))
      return { kind: "unreachable", detail };
    return { kind: "unknown", detail };
  }
  return { response, bytes };
}

/** Parses an answer's bytes against the schema; unknown when it is not JSON, not this shape or another request's. */
function readAnswer(
  bytes: ArrayBuffer,
  schema: z.ZodType<AnetBase>,
  refId: string | undefined,
  action: string,
): Exchange<AnetBase> {
  // ignoreBOM keeps the mark in the text so that it is stripped here, visibly, whatever the decoder's default.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    log.warn(
      { processor: "authorizenet", action, refId, bytes: bytes.byteLength },
      "card processor answered something that is not JSON",
    );
    return { kind: "unknown", detail: "not JSON" };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    log.warn({ processor: "authorizenet", action, refId }, "card processor answered JSON of an unexpected shape");
    return { kind: "unknown", detail: "unexpected shape" };
  }
  if (parsed.data.refId !== undefined && refId !== undefined && parsed.data.refId !== refId) {
    log.warn(
      { processor: "authorizenet", action, refId, answeredRefId: parsed.data.refId },
      "card processor answered another request's refId",
    );
    return { kind: "unknown", detail: "refId mismatch" };
  }
  return { kind: "answer", data: parsed.data };
}

/** Checks the card, sends the charge and reads the outcome from the answer. */
async function charge(context: AnetContext, request: ChargeRequest): Promise<ChargeResult> {
  const checked = checkCharge(request, context.now());
  if ("refused" in checked) return checked.refused;
  const check = checked.card;
  const refId = authorizeNetRefId(request.idempotencyKey);
  const body = chargeBody(request, {
    merchantAuthentication: context.merchantAuthentication,
    refId,
    expMonth: check.expMonth,
    expYear: check.expYear,
  });
  const exchange = await post(context, body, refId, "charge");
  if (exchange.kind === "unreachable")
    return { status: "declined", reason: "error", message: PAYMENT_MESSAGES.unreachable };
  if (exchange.kind === "unknown") return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  return chargeResult(exchange.data, refId, check);
}

/** A charge's answer as the site reads it: the transaction's response code first, then the request's result. */
function chargeResult(data: AnetResponse, refId: string, check: CheckedCard): ChargeResult {
  const transaction = data.transactionResponse;
  const details = describe(data);
  switch (transaction?.responseCode) {
    case "1":
      return approvedCharge(data, refId, check);
    case "2":
      log.info({ processor: "authorizenet", refId, ...details }, "card declined by the processor");
      return { status: "declined", reason: "card", message: details.errorText ?? PAYMENT_MESSAGES.declined };
    case "3": {
      if (isDuplicate(data)) {
        // The earlier identical charge may have been taken: the visitor is told not to pay again.
        log.warn({ processor: "authorizenet", refId, ...details }, "card processor refused a duplicate charge");
        return { status: "declined", reason: "duplicate", message: PAYMENT_MESSAGES.unknown };
      }
      log.warn({ processor: "authorizenet", refId, ...details }, "card processor refused the transaction");
      const forCardholder = details.errorCode && CARDHOLDER_ERROR_CODES.has(details.errorCode) && details.errorText;
      return { status: "declined", reason: "error", message: forCardholder || PAYMENT_MESSAGES.processorError };
    }
    case "4":
      log.warn(
        { processor: "authorizenet", refId, ...details, transId: transaction.transId },
        "card payment held for review by the processor",
      );
      return {
        status: "unknown",
        message: PAYMENT_MESSAGES.unknown,
        ...(transaction.transId && transaction.transId !== "0" ? { transactionId: transaction.transId } : {}),
      };
    default:
      if (data.messages.resultCode === "Error" && !transaction?.transId) {
        // The request was refused as a whole (E00007 bad credentials, E00003 a malformed request, …): no transaction exists.
        log.error({ processor: "authorizenet", refId, ...details }, "card processor refused the request");
        return { status: "declined", reason: "error", message: PAYMENT_MESSAGES.processorError };
      }
      log.warn({ processor: "authorizenet", refId, ...details }, "card processor answered an unknown response code");
      return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  }
}

/** An approval (responseCode 1): approved with its transaction id, brand and last four, or unknown without a usable id. */
function approvedCharge(data: AnetResponse, refId: string, check: CheckedCard): ChargeResult {
  const transaction = data.transactionResponse!;
  const transId = transaction.transId ?? "";
  // "0" is what an account in Test Mode answers: nothing was charged, and nothing can be voided later.
  if (data.messages.resultCode !== "Ok" || !/^\d+$/.test(transId) || transId === "0") {
    log.warn(
      { processor: "authorizenet", refId, ...describe(data), transId },
      "card processor approved without a usable transaction id",
    );
    return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  }
  const type = transaction.accountType ? ACCOUNT_TYPES[transaction.accountType] : undefined;
  const last4 = /(\d{4})$/.exec(transaction.accountNumber ?? "")?.[1] ?? check.last4;
  return { status: "approved", transactionId: transId, brand: type ? brandName(type) : check.brand, last4 };
}

/**
 * Voids a charge. The reference is not sent: a void has no order of its own (the charge's
 * transaction reads `voided`).
 */
async function voidCharge(context: AnetContext, transactionId: string): Promise<AdjustResult> {
  if (!isTransactionId(transactionId)) return { status: "declined", message: NOT_OURS };
  const body = {
    createTransactionRequest: {
      merchantAuthentication: context.merchantAuthentication,
      transactionRequest: { transactionType: "voidTransaction", refTransId: transactionId },
    },
  };
  return adjustResult(await post(context, body, undefined, "void"), transactionId);
}

/** Refunds (part of) a settled charge to the card named by its last four digits. */
async function refund(
  context: AnetContext,
  transactionId: string,
  amountCents: number,
  last4: string,
  reference: string,
): Promise<AdjustResult> {
  assertCents(amountCents);
  if (!/^\d{4}$/.test(last4)) return { status: "declined", message: "The card's last four digits are required." };
  if (!isTransactionId(transactionId)) return { status: "declined", message: NOT_OURS };
  const invoiceNumber = cut(reference, LIMITS.invoiceNumber);
  const body = {
    createTransactionRequest: {
      merchantAuthentication: context.merchantAuthentication,
      transactionRequest: {
        transactionType: "refundTransaction",
        amount: centsToDecimal(amountCents),
        // Refunds name the card by its last four digits; "XXXX" stands for the expiry the processor already has.
        payment: { creditCard: { cardNumber: last4, expirationDate: "XXXX" } },
        refTransId: transactionId,
        // After refTransId in the schema's sequence: the refund's own ledger reference, to find it by.
        ...(invoiceNumber ? { order: { invoiceNumber } } : {}),
      },
    },
  };
  return adjustResult(await post(context, body, undefined, "refund"), transactionId);
}

/** The look-up's answer when the processor could not be asked or searched to the end. */
type Unknown = Extract<LookupResult, { status: "unknown" }>;

/**
 * The newest transaction with this reference made since `since`: the unsettled list first, then
 * the batches settled since then (read after it, so one that settles in between is still seen),
 * then that transaction's details. `missing` only when both were searched to the end.
 */
async function findByReference(context: AnetContext, reference: string, since: Date): Promise<LookupResult> {
  if (Number.isNaN(since.getTime())) throw new RangeError("findByReference: `since` is not a date");
  const invoiceNumber = cut(reference, LIMITS.invoiceNumber);
  if (!invoiceNumber) return { status: "missing" };
  let match = await searchList(context, invoiceNumber, (paging) => ({
    getUnsettledTransactionListRequest: {
      merchantAuthentication: context.merchantAuthentication,
      sorting: { orderBy: "submitTimeUTC", orderDescending: true },
      paging,
    },
  }));
  if (match === "absent") match = await searchSettled(context, invoiceNumber, since);
  if (match === "absent") return { status: "missing" };
  if ("status" in match) return match;
  const found = await lookup(context, match.transId);
  // Listed a moment ago: a record the details then deny is not "never reached".
  return found.status === "missing" ? { status: "unknown", message: LOOKUP_MESSAGES.unreadable } : found;
}

/** The batches settled since `since`, a window at a time, newest first, each searched for the reference. */
async function searchSettled(
  context: AnetContext,
  invoiceNumber: string,
  since: Date,
): Promise<AnetSummary | "absent" | Unknown> {
  const windows = settlementWindows(since, context.now());
  const searched = new Set<string>();
  for (const [index, window] of windows.entries()) {
    if (index === SETTLED_WINDOWS) return tooMany("settlement windows", { since: since.toISOString() });
    const batches = await settledBatches(context, window);
    if (!Array.isArray(batches)) return batches;
    for (const batchId of batches) {
      // Windows share their edges: a batch settled on one is listed twice.
      if (searched.has(batchId)) continue;
      if (searched.size === SETTLED_BATCHES) return tooMany("settled batches", { since: since.toISOString() });
      searched.add(batchId);
      const match = await searchList(context, invoiceNumber, (paging) => ({
        getTransactionListRequest: {
          merchantAuthentication: context.merchantAuthentication,
          batchId,
          sorting: { orderBy: "submitTimeUTC", orderDescending: true },
          paging,
        },
      }));
      if (match !== "absent") return match;
    }
  }
  return "absent";
}

/**
 * [first, last] settlement dates from now back to `since`, newest first, none longer than
 * SETTLEMENT_WINDOW_DAYS. The first reaches a day before `since`: settlement dates are the
 * processor's clock, not ours, and a day more costs one batch at most.
 */
export function settlementWindows(since: Date, now: Date): { first: Date; last: Date }[] {
  const start = since.getTime() - DAY_MS;
  const windows: { first: Date; last: Date }[] = [];
  for (let last = now.getTime(); last > start; last -= SETTLEMENT_WINDOW_DAYS * DAY_MS) {
    windows.push({ first: new Date(Math.max(start, last - SETTLEMENT_WINDOW_DAYS * DAY_MS)), last: new Date(last) });
    // Past the bound nothing more is read: one window too many is enough to say so.
    if (windows.length > SETTLED_WINDOWS) break;
  }
  return windows;
}

/** xs:dateTime in UTC to the second, as the API's examples write it. */
const settlementDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** The ids of the batches settled within one window, newest first, or the look-up's unknown outcome. */
async function settledBatches(context: AnetContext, window: { first: Date; last: Date }): Promise<string[] | Unknown> {
  const body = {
    getSettledBatchListRequest: {
      merchantAuthentication: context.merchantAuthentication,
      firstSettlementDate: settlementDate(window.first),
      lastSettlementDate: settlementDate(window.last),
    },
  };
  const exchange = await post(context, body, undefined, "findByReference", batchListSchema);
  const data = readList(exchange);
  if ("status" in data) return data;
  const listed: AnetBatch[] = Array.isArray(data.batchList) ? data.batchList : (data.batchList?.batch ?? []);
  const ids = listed
    .sort((a, b) => (b.settlementTimeUTC ?? "").localeCompare(a.settlementTimeUTC ?? ""))
    .map((batch) => String(batch.batchId).trim());
  // A batch id is digits (the schema's numericString): anything else cannot be asked about.
  if (ids.some((id) => !isTransactionId(id))) {
    log.warn(
      { processor: "authorizenet", action: "findByReference" },
      "card processor listed a batch without a usable id",
    );
    return { status: "unknown", message: LOOKUP_MESSAGES.unreadable };
  }
  return ids;
}

/**
 * Pages through one transaction list (unsettled, or one settled batch) for the newest transaction
 * with this invoice number; "absent" when the list was read to its end without it.
 */
async function searchList(
  context: AnetContext,
  invoiceNumber: string,
  request: (paging: { limit: number; offset: number }) => unknown,
): Promise<AnetSummary | "absent" | Unknown> {
  for (let page = 1; page <= LIST_PAGES; page++) {
    const body = request({ limit: LIST_PAGE_SIZE, offset: page });
    const data = readList(await post(context, body, undefined, "findByReference", listSchema));
    if ("status" in data) return data;
    const listed = Array.isArray(data.transactions) ? data.transactions : (data.transactions?.transaction ?? []);
    const match = newestWithInvoice(listed, invoiceNumber);
    if (match) return match;
    if (listed.length < LIST_PAGE_SIZE) return "absent";
  }
  return tooMany("transactions", { pages: LIST_PAGES, pageSize: LIST_PAGE_SIZE });
}

/** A list's answer, or the look-up's unknown outcome when there is none or it is a refusal. */
function readList<T extends AnetBase>(exchange: Exchange<T>): T | Unknown {
  if (exchange.kind !== "answer") return { status: "unknown", message: LOOKUP_MESSAGES.noAnswer };
  const { data } = exchange;
  if (data.messages.resultCode !== "Ok") {
    log.warn(
      { processor: "authorizenet", action: "findByReference", ...describe(data) },
      "card processor refused a look-up",
    );
    return { status: "unknown", message: LOOKUP_MESSAGES.refused };
  }
  return data;
}

function tooMany(what: string, detail: Record<string, unknown>): Unknown {
  log.warn(
    { processor: "authorizenet", action: "findByReference", ...detail },
    `too many ${what} to search for a reference`,
  );
  return { status: "unknown", message: LOOKUP_MESSAGES.tooMany };
}

/** The most recently submitted of the listed transactions whose invoice number is the reference. */
function newestWithInvoice(listed: AnetSummary[], invoiceNumber: string): AnetSummary | undefined {
  return listed
    .filter((t) => t.invoiceNumber === invoiceNumber)
    .sort((a, b) => (b.submitTimeUTC ?? "").localeCompare(a.submitTimeUTC ?? ""))[0];
}

/** The processor's record of one transaction, read from the Transaction Details API. */
async function lookup(context: AnetContext, transactionId: string): Promise<LookupResult> {
  if (!isTransactionId(transactionId)) return { status: "missing" };
  const body = {
    getTransactionDetailsRequest: { merchantAuthentication: context.merchantAuthentication, transId: transactionId },
  };
  const exchange = await post(context, body, undefined, "lookup", detailsSchema);
  if (exchange.kind !== "answer") return { status: "unknown", message: LOOKUP_MESSAGES.noAnswer };
  const { data } = exchange;
  if (data.messages.resultCode !== "Ok") {
    if (data.messages.message?.some((m) => m.code === RECORD_NOT_FOUND)) return { status: "missing" };
    log.warn(
      { processor: "authorizenet", action: "lookup", transactionId, ...describe(data) },
      "card processor refused a look-up",
    );
    return { status: "unknown", message: LOOKUP_MESSAGES.refused };
  }
  if (!data.transaction) {
    log.warn(
      { processor: "authorizenet", action: "lookup", transactionId },
      "card processor answered a look-up without its transaction",
    );
    return { status: "unknown", message: LOOKUP_MESSAGES.unreadable };
  }
  return transactionFromDetails(data.transaction, transactionId);
}

/** A getTransactionDetails transaction as the site reads it; `unknown` for what it cannot read with certainty. */
function transactionFromDetails(t: AnetDetails, asked: string): LookupResult {
  const type = TRANSACTION_TYPES[t.transactionType];
  const settle = amountCents(t.settleAmount);
  const auth = amountCents(t.authAmount);
  const amount = settle !== null && settle > 0 ? settle : auth;
  const context = {
    processor: "authorizenet",
    action: "lookup",
    transactionId: asked,
    transactionType: t.transactionType,
    transactionStatus: t.transactionStatus,
  };
  if (!isProcessorStatus(t.transactionStatus)) {
    // A status added after this was written: reading it as a refusal could give back money that was taken.
    log.warn(context, "card processor holds a transaction in a status the site does not know");
    return { status: "unknown", message: LOOKUP_MESSAGES.status };
  }
  if (!type || amount === null || t.transId !== asked) {
    log.warn(context, "card processor answered a look-up that cannot be read");
    return { status: "unknown", message: LOOKUP_MESSAGES.unreadable };
  }
  const state = TRANSACTION_STATUSES[t.transactionStatus];
  const card = t.payment?.creditCard;
  const last4 = /(\d{4})$/.exec(card?.cardNumber ?? "")?.[1];
  const brand = card?.cardType && ACCOUNT_TYPES[card.cardType] ? brandName(ACCOUNT_TYPES[card.cardType]!) : undefined;
  const reference = t.order?.invoiceNumber?.trim();
  const parent = t.refTransId && t.refTransId !== "0" ? t.refTransId : undefined;
  const batchId = t.batch?.batchId === undefined ? "" : String(t.batch.batchId).trim();
  return {
    status: "found",
    transaction: {
      transactionId: t.transId,
      type,
      status: state.status,
      processorStatus: t.transactionStatus,
      settled: state.settled,
      ...(batchId ? { batchId } : {}),
      amountCents: amount,
      ...(reference ? { reference } : {}),
      ...(parent ? { parentTransactionId: parent } : {}),
      ...(brand ? { brand } : {}),
      ...(last4 ? { last4 } : {}),
    },
  };
}

/** 250.5 or "250.50" → 25050; null when it is not an amount. */
function amountCents(value: number | string | undefined): number | null {
  if (value === undefined) return null;
  return parseDollars(typeof value === "number" ? value.toFixed(2) : value);
}

/** The charge's request body, in the schema's element order (see above). */
export function chargeBody(
  request: ChargeRequest,
  extra: {
    merchantAuthentication: { name: string; transactionKey: string };
    refId: string;
    expMonth: number;
    expYear: number;
  },
) {
  const holder = oneLine(request.card.holder).split(" ");
  const lastName = holder.length > 1 ? holder.pop() : undefined;
  const firstName = holder.join(" ");
  const billing = request.billing ?? {};
  // The order's invoice number is the ledger's reference (what a lost answer is found by); the
  // company's invoice number, when paying one, is named in the description instead.
  const invoice = request.invoiceNumber?.trim();
  const description =
    invoice && !request.description.includes(invoice)
      ? `Invoice ${invoice}: ${request.description}`
      : request.description;
  const order = {
    invoiceNumber: cut(request.reference, LIMITS.invoiceNumber),
    description: cut(description, LIMITS.description),
  };
  const email = cut(request.customer?.email, LIMITS.email);
  const ip = customerIp(request.customer?.ip);
  return {
    createTransactionRequest: {
      merchantAuthentication: extra.merchantAuthentication,
      refId: extra.refId,
      transactionRequest: dropEmpty({
        transactionType: "authCaptureTransaction",
        amount: centsToDecimal(request.amountCents),
        payment: {
          creditCard: {
            cardNumber: cardDigits(request.card.number)!,
            expirationDate: `${extra.expYear}-${String(extra.expMonth).padStart(2, "0")}`,
            cardCode: request.card.cvc.trim(),
          },
        },
        order: dropEmpty(order),
        customer: email ? { email } : undefined,
        billTo: dropEmpty({
          firstName: cut(firstName, LIMITS.firstName),
          lastName: cut(lastName, LIMITS.lastName),
          address: cut(billing.address, LIMITS.address),
          city: cut(billing.city, LIMITS.city),
          state: cut(billing.state, LIMITS.state),
          zip: cut(billing.zip, LIMITS.zip),
          country: cut(billing.country, LIMITS.country),
        }),
        customerIP: ip,
      }),
    },
  };
}

/** Codes and texts for the log (processor texts scrubbed of anything card-like). */
function describe(data: AnetResponse) {
  const error = data.transactionResponse?.errors?.[0];
  const message = data.messages.message?.[0];
  return {
    resultCode: data.messages.resultCode,
    messageCode: message?.code,
    messageText: message ? scrubCardNumbers(message.text) : undefined,
    responseCode: data.transactionResponse?.responseCode,
    errorCode: error?.errorCode,
    errorText: error ? scrubCardNumbers(error.errorText) : undefined,
  };
}

/** Leaves out undefined members and empty objects (the API refuses empty elements); keeps the order. */
function dropEmpty<T extends Record<string, unknown>>(value: T): T | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue;
    if (member && typeof member === "object" && Object.keys(member).length === 0) continue;
    out[key] = member;
  }
  return Object.keys(out).length > 0 ? (out as T) : undefined;
}

function adjustResult(exchange: Exchange, transactionId: string): AdjustResult {
  if (exchange.kind === "unreachable") return { status: "declined", message: PAYMENT_MESSAGES.unreachable };
  if (exchange.kind === "unknown") return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  const { data } = exchange;
  const transaction = data.transactionResponse;
  if (data.messages.resultCode === "Ok" && transaction?.responseCode === "1") {
    return {
      status: "approved",
      transactionId: transaction.transId && transaction.transId !== "0" ? transaction.transId : transactionId,
    };
  }
  if (data.messages.resultCode === "Error" || transaction?.responseCode === "2" || transaction?.responseCode === "3") {
    log.warn(
      { processor: "authorizenet", transactionId, ...describe(data) },
      "card processor refused a void or refund",
    );
    const text = transaction?.errors?.[0]?.errorText ?? data.messages.message?.[0]?.text;
    const message = text ? scrubCardNumbers(text) : PAYMENT_MESSAGES.processorError;
    return isDuplicate(data) ? { status: "declined", message, duplicate: true } : { status: "declined", message };
  }
  return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
}
