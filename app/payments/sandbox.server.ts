import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, gte, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Database, Tx } from "@db/client.server";
import { sandboxTransactions } from "@db/schema/sandbox";
import { COMPANY_TIME_ZONE, todayInDetroit } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { checkCharge } from "./card";
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
import { assertCents } from "./money";

/**
 * The default gateway (PAYMENT_GATEWAY=sandbox, DECISIONS 15; issue 36): a card processor with
 * books of its own and no money. Its transactions live in `sandbox_transactions` (the processor's
 * side: the site reads them only through this interface), written through the database handle it
 * is given, so two instances on one database share them as they would share a real processor.
 *
 * A charge runs the same card checks a real one does (Luhn, brand, length, expiry in
 * America/Detroit, CVC length), then:
 *   4242 4242 4242 4242 → approved (so does any other valid number)
 *   4000 0000 0000 0002 → declined, "Your card was declined." (recorded as a declined charge, as
 *                         Authorize.net keeps its declined transactions)
 *   4000 0000 0000 0119 → charged, answer lost: recorded approved, but the caller is told
 *                         `unknown` without a transaction id (found again by `findByReference`)
 *   4000 0000 0000 0127 → never reached: nothing recorded, the caller is told `unknown`
 *   4000 0000 0000 0101 → held for review (FDSPendingReview): the caller is told `unknown` with the
 *                         transaction id; it is in no batch until `decideReview` approves it
 *                         (then a charge like any other) or declines it
 *
 * Settlement, as Authorize.net's: every transaction goes into the batch of the day's cut-off after
 * it was made, by default the next midnight in America/Detroit (`nextDetroitMidnight`;
 * Authorize.net's default is 3:00 PM Pacific: any daily instant behaves the same way). The batch's
 * id is the cut-off's Unix seconds (`settlementBatchId`). Before the cut-off a charge can be voided
 * and not refunded; after it, refunded and not voided. `settlesAt` replaces the rule (tests, and
 * the e2e server through SANDBOX_SETTLEMENT=immediate). Statuses are Authorize.net's, read from the
 * row and the clock: a charge capturedPendingSettlement, then settledSuccessfully; a refund
 * refundPendingSettlement, then refundSettledSuccessfully; declined; voided (the voided charge, and
 * the sandbox's own row for the void). A charge's row keeps its cut-off (`settles_at`); a declined
 * charge's or a void's is the rule's for its `created_at`.
 *
 * The look-ups are Authorize.net's reporting API: `lookup` its transaction details, and the lists
 * behind `findByReference`: the unsettled transactions (`unsettledTransactions`), the batches
 * settled in a window (`settledBatches`) and each batch's transactions (`batchTransactions`).
 *
 * Duplicates, as Authorize.net's window: a charge, void or refund for the same amount on the same
 * card (brand and last four) with the same reference as one made within `DUPLICATE_WINDOW_MS` (of
 * the processor's clock) is refused as a duplicate and nothing is recorded. The reference is the
 * ledger row, so a re-sent row is a duplicate and two bookings at the same price are not.
 *
 * A refund gives back at most what the charge settled minus the refunds already approved, and
 * names the card by the charge's last four. The check and the insert run in one transaction with
 * the charge's row locked (`select … for update`), so two instances refunding at once never go
 * past that cap. A refused void or refund leaves no row (as a processor answers an error without a
 * transaction).
 *
 * A processor either did a request or did not: every write runs in one transaction bounded by the
 * processing limit (`processingLimitMs`, default PAYMENT_TIMEOUT_MS). A write stalled past it (a
 * lock, a busy pool) is rolled back and answered `unknown`, never landing after the site gave up.
 *
 * The card never reaches the table: only its brand and last four digits.
 */
export const SANDBOX_CARDS = {
  approve: "4242424242424242",
  decline: "4000000000000002",
  /** Charged, but the answer is lost on the way back: `unknown`, no transaction id. */
  lost: "4000000000000119",
  /** The request never reaches the processor: `unknown`, nothing recorded. */
  unreached: "4000000000000127",
  /** Held for review: `unknown` with a transaction id, pending until `decideReview`. */
  review: "4000000000000101",
  /** The card named before issue 36 (the same as `lost`). */
  unknown: "4000000000000119",
} as const;

export const SANDBOX_TRANSACTION_PREFIX = "sbx_";

/** The sandbox's refusals of a void or a refund (its own wording, as a processor's errorText). */
export const SANDBOX_MESSAGES = {
  unknownTransaction: "The transaction cannot be found.",
  notCharge: "Only a charge can be voided or refunded.",
  notApproved: "The transaction was not approved: there is nothing to void or refund.",
  voided: "The transaction has been voided: there is nothing to refund.",
  alreadyVoided: "The transaction has already been voided.",
  settled: "The transaction has settled: refund it instead.",
  notSettled: "The transaction has not settled yet: void it instead.",
  last4: "The card's last four digits do not match the transaction.",
  amount: "The refund amount must be more than zero.",
  overCap: "The refund is more than what is left to refund on the transaction.",
  held: "The transaction is held for review: it can be neither voided nor refunded until it is approved.",
  /** Authorize.net's wording (its error 11). */
  duplicate: "A duplicate transaction has been submitted.",
} as const;

/**
 * Authorize.net's default duplicate window: the same request (amount, card, reference) made again
 * within it is refused, and the earlier one stands.
 */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

/** A settled batch, as getSettledBatchListRequest lists it. */
export type SettledBatch = { batchId: string; settlementTime: Date };

/** The sandbox as a processor with a reporting API: the lists behind `findByReference`, for tests. */
export type SandboxGateway = PaymentGateway & {
  /** getUnsettledTransactionListRequest: every transaction not in a batch yet, oldest first. */
  unsettledTransactions(): Promise<ProcessorTransaction[]>;
  /** getSettledBatchListRequest: the batches whose cut-off lies between `first` and `last` (and has passed). */
  settledBatches(first: Date, last: Date): Promise<SettledBatch[]>;
  /** getTransactionListRequest: a settled batch's transactions, oldest first. */
  batchTransactions(batchId: string): Promise<ProcessorTransaction[]>;
  transactionsSince(since: Date): Promise<ProcessorTransaction[]>;
};

export type SandboxGatewayOptions = {
  /** Where the processor keeps its books: a handle, or a function giving one (called on first use). */
  db: Database | (() => Database | Promise<Database>);
  /** The processor's clock: card expiry, when a transaction was made, whether it has settled. */
  now?: () => Date;
  /** When a charge or refund made at `createdAt` settles. Default: `nextDetroitMidnight`. */
  settlesAt?: (createdAt: Date) => Date;
  /**
   * How long a write may take before the processor gives it up: rolled back and answered
   * `unknown`. Default: PAYMENT_TIMEOUT_MS, the site's own wait for an answer.
   */
  processingLimitMs?: number;
};

/** A new transaction id: `sbx_` and 24 random hex digits. */
function newTransactionId(): string {
  return SANDBOX_TRANSACTION_PREFIX + randomBytes(12).toString("hex");
}

const dayAfter = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

const hourOf = new Intl.DateTimeFormat("en-CA", {
  timeZone: COMPANY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

/**
 * The default cut-off: the first midnight in America/Detroit after `createdAt` (a charge made at
 * 23:59 settles a minute later; one made at 00:00 the next night). Midnight always exists there
 * (the clocks move at 2 AM): it is 04:00 or 05:00 UTC.
 */
export function nextDetroitMidnight(createdAt: Date): Date {
  const date = dayAfter(todayInDetroit(createdAt));
  for (const offset of [4, 5]) {
    const candidate = new Date(`${date}T0${offset}:00:00Z`);
    const parts = Object.fromEntries(hourOf.formatToParts(candidate).map((p) => [p.type, p.value]));
    if (`${parts.year}-${parts.month}-${parts.day}` === date && Number(parts.hour) === 0) return candidate;
  }
  throw new RangeError(`no midnight on ${date} in ${COMPANY_TIME_ZONE}`);
}

/** SANDBOX_SETTLEMENT=immediate: a transaction settles the moment it is made (refunds at once, no voids). */
export const settleImmediately = (createdAt: Date): Date => createdAt;

/** The id of the batch settled at `cutoff`: its Unix seconds (digits, as Authorize.net's batch ids). */
export const settlementBatchId = (cutoff: Date): string => String(Math.floor(cutoff.getTime() / 1000));

type Row = typeof sandboxTransactions.$inferSelect;
/** A charge that a void or refund may act on (locked), or why not. */
type LockedCharge = { refused: string } | { charge: Row; voided: boolean };

/** What every call of one sandbox gateway shares: its clock, its settlement rule and its books. */
type SandboxContext = {
  now: () => Date;
  settlesAt: (createdAt: Date) => Date;
  database: () => Promise<Database>;
  processingLimitMs: () => number;
};

export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const context: SandboxContext = {
    now: options.now ?? (() => new Date()),
    settlesAt: options.settlesAt ?? nextDetroitMidnight,
    database: databaseOf(options),
    processingLimitMs: () => options.processingLimitMs ?? env().PAYMENT_TIMEOUT_MS,
  };
  return {
    name: "sandbox",
    charge: (request: ChargeRequest) => charge(context, request),
    void: (transactionId: string, reference: string) => voidCharge(context, transactionId, reference),
    refund: (transactionId: string, amountCents: number, last4: string, reference: string) =>
      refund(context, transactionId, amountCents, last4, reference),
    lookup: (transactionId: string) => lookup(context, transactionId),
    findByReference: (reference: string, since: Date) => findByReference(context, reference, since),
    unsettledTransactions: () => unsettledTransactions(context),
    settledBatches: (first: Date, last: Date) => settledBatches(context, first, last),
    batchTransactions: (batchId: string) => batchTransactions(context, batchId),
    /** The processor's books since a moment (the payments audit looks there for money the ledger does not know). */
    transactionsSince: (since: Date) => transactionsSince(context, since),
  };
}

/**
 * The books' handle as the options give it: the handle itself, or the function giving one,
 * called on first use and kept (a failed open is tried again by the next call).
 */
function databaseOf(options: SandboxGatewayOptions): () => Promise<Database> {
  let handle: Promise<Database> | undefined;
  return (): Promise<Database> => {
    const given = options.db;
    if (typeof given !== "function") return Promise.resolve(given);
    if (!handle) {
      const opening = Promise.resolve().then(given);
      handle = opening;
      // A failed open is tried again by the next call.
      opening.catch(() => {
        if (handle === opening) handle = undefined;
      });
    }
    return handle;
  };
}

/**
 * The cut-off of the batch the row goes into: its own (a charge's, a refund's, a decided review's),
 * else the rule's for when it was made (a declined charge, a void, rows written before they kept
 * one); none while it is held for review.
 */
function cutoffOf(context: SandboxContext, row: Row): Date | null {
  if (row.status === "review") return null;
  return row.settlesAt ?? context.settlesAt(row.createdAt);
}

/** Whether the row is in a batch at `at`: its cut-off has passed. */
function isBatched(context: SandboxContext, row: Row, at: Date): boolean {
  const cutoff = cutoffOf(context, row);
  return cutoff !== null && at.getTime() >= cutoff.getTime();
}

/** The batch the row is in at `at`, if any. */
function batchOf(context: SandboxContext, row: Row, at: Date): string | undefined {
  const cutoff = cutoffOf(context, row);
  return cutoff !== null && at.getTime() >= cutoff.getTime() ? settlementBatchId(cutoff) : undefined;
}

/** A charge or refund that went through and is in a batch: its money has settled. */
const isSettled = (context: SandboxContext, row: Row, at: Date) =>
  row.status === "approved" && row.type !== "void" && isBatched(context, row, at);

const STATUSES = new Set<string>(["approved", "declined", "voided", "review"]);

/** Authorize.net's name for the row's status at `at` (whether its batch has settled decides some). */
function processorStatusOf(row: Row, batched: boolean): ProcessorStatus {
  if (row.type === "void") return "voided";
  if (row.status === "declined" || row.status === "voided") return row.status;
  if (row.status === "review") return "FDSPendingReview";
  if (row.status !== "approved") return "generalError";
  if (row.type === "refund") return batched ? "refundSettledSuccessfully" : "refundPendingSettlement";
  return batched ? "settledSuccessfully" : "capturedPendingSettlement";
}

/** A row of the books as the processor describes the transaction at `at`. */
function describe(context: SandboxContext, row: Row, at: Date): ProcessorTransaction {
  const batchId = batchOf(context, row, at);
  const batched = batchId !== undefined;
  return {
    transactionId: row.id,
    type: row.type as ProcessorTransaction["type"],
    // Anything else is an error's kind: nothing moved.
    status: (STATUSES.has(row.status) ? row.status : "declined") as ProcessorTransaction["status"],
    processorStatus: processorStatusOf(row, batched),
    settled: isSettled(context, row, at),
    ...(batched ? { batchId } : {}),
    amountCents: row.amountCents,
    ...(row.reference ? { reference: row.reference } : {}),
    ...(row.parentId ? { parentTransactionId: row.parentId } : {}),
    ...(row.brand ? { brand: row.brand } : {}),
    ...(row.last4 ? { last4: row.last4 } : {}),
  };
}

/** A database failure is the processor not answering: the outcome is unknown (never thrown). */
function failed(action: string, error: unknown) {
  log.error({ processor: "sandbox", action, error: (error as Error)?.name ?? "Error" }, "sandbox processor failed");
  return { status: "unknown", message: PAYMENT_MESSAGES.unknown } as const;
}

type Unknown = ReturnType<typeof failed>;

/** Thrown in a write's transaction once the processor has given it up: it rolls back. */
class Abandoned extends Error {
  override name = "ProcessingLimit";
}

const LATE = Symbol("late");

/**
 * Runs one write of the processor in a transaction bounded by its processing limit, so that it is
 * either done or not at all, never landing after its answer was given up: the transaction's lock
 * and statement waits end at the limit (`SET LOCAL` through set_config), and once the limit has
 * passed the caller is told `unknown` and the transaction rolls back wherever it stands (waiting
 * for a connection, a lock, or PGlite's turn), unless it is already committing.
 */
async function bounded<T>(context: SandboxContext, action: string, work: (tx: Tx) => Promise<T>): Promise<T | Unknown> {
  const limitMs = context.processingLimitMs();
  let abandoned = false;
  let committing = false;
  const run = context.database().then((db) =>
    db.transaction(async (tx) => {
      if (abandoned) throw new Abandoned();
      const limit = `${limitMs}ms`;
      await tx.execute(
        sql`select set_config('lock_timeout', ${limit}, true), set_config('statement_timeout', ${limit}, true)`,
      );
      const result = await work(tx);
      if (abandoned) throw new Abandoned();
      committing = true;
      return result;
    }),
  );
  // Its end after the caller's answer (a rollback) is nobody's to handle.
  run.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => {
      if (committing) return;
      abandoned = true;
      resolve(LATE);
    }, limitMs);
  });
  try {
    const outcome = await Promise.race([run, late]);
    return outcome === LATE ? failed(action, new Abandoned()) : outcome;
  } catch (error) {
    return failed(action, error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Locks the charge `transactionId` for a void or refund and returns it, or why it cannot be
 * adjusted. The lock is held until the caller's transaction ends.
 */
async function lockedCharge(tx: Tx, transactionId: string): Promise<LockedCharge> {
  const [charge] = await tx
    .select()
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.id, transactionId))
    .for("update");
  if (!charge) return { refused: SANDBOX_MESSAGES.unknownTransaction };
  if (charge.type !== "charge") return { refused: SANDBOX_MESSAGES.notCharge };
  if (charge.status === "voided") return { charge, voided: true };
  if (charge.status === "review") return { refused: SANDBOX_MESSAGES.held };
  if (charge.status !== "approved") return { refused: SANDBOX_MESSAGES.notApproved };
  return { charge, voided: false };
}

/** getTransactionDetailsRequest: the transaction `transactionId`, or missing; unknown when the books cannot be read. */
async function lookup(context: SandboxContext, transactionId: string): Promise<LookupResult> {
  try {
    const db = await context.database();
    const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.id, transactionId));
    return row ? { status: "found", transaction: describe(context, row, context.now()) } : { status: "missing" };
  } catch (error) {
    return failed("lookup", error);
  }
}

/**
 * The newest transaction with this reference in the unsettled list, else the newest in a batch
 * settled since `since`: what the reporting API's lists give, read through the reference's index
 * (the reconciler asks every minute) and sorted as the lists would sort them.
 */
async function findByReference(context: SandboxContext, reference: string, since: Date): Promise<LookupResult> {
  try {
    const db = await context.database();
    const at = context.now();
    const rows = await db
      .select()
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.reference, reference))
      .orderBy(desc(sandboxTransactions.createdAt));
    // Callers written before `since` existed search every batch.
    const from = since instanceof Date ? since.getTime() : 0;
    const row =
      rows.find((r) => !isBatched(context, r, at)) ??
      rows.find((r) => isBatched(context, r, at) && cutoffOf(context, r)!.getTime() >= from);
    return row ? { status: "found", transaction: describe(context, row, at) } : { status: "missing" };
  } catch (error) {
    return failed("findByReference", error);
  }
}

/**
 * The rows that may be in a batch settled between `from` and `to` (whose cut-off lies there), to
 * be checked one by one: those that keep their cut-off, by it; the others by when they were made
 * (a cut-off never comes before that).
 */
const batchedBetween = (from: Date, to: Date): SQL =>
  or(
    and(gte(sandboxTransactions.settlesAt, from), lte(sandboxTransactions.settlesAt, to)),
    and(isNull(sandboxTransactions.settlesAt), lte(sandboxTransactions.createdAt, to)),
  )!;

/** The rows of `where`, oldest first. */
async function rowsWhere(context: SandboxContext, where: SQL): Promise<Row[]> {
  const db = await context.database();
  return db.select().from(sandboxTransactions).where(where).orderBy(asc(sandboxTransactions.createdAt));
}

/** Rows without a cut-off of their own are all read and checked: only tests ask for the whole list. */
async function unsettledTransactions(context: SandboxContext): Promise<ProcessorTransaction[]> {
  const at = context.now();
  const rows = await rowsWhere(
    context,
    or(gt(sandboxTransactions.settlesAt, at), isNull(sandboxTransactions.settlesAt))!,
  );
  return rows.filter((row) => !isBatched(context, row, at)).map((row) => describe(context, row, at));
}

async function settledBatches(context: SandboxContext, first: Date, last: Date): Promise<SettledBatch[]> {
  const at = context.now();
  const to = new Date(Math.min(last.getTime(), at.getTime()));
  const batches = new Map<string, SettledBatch>();
  for (const row of await rowsWhere(context, batchedBetween(first, to))) {
    const cutoff = cutoffOf(context, row);
    if (!cutoff || cutoff.getTime() < first.getTime() || cutoff.getTime() > to.getTime()) continue;
    const batchId = settlementBatchId(cutoff);
    batches.set(batchId, { batchId, settlementTime: new Date(Number(batchId) * 1000) });
  }
  return [...batches.values()].sort((a, b) => a.settlementTime.getTime() - b.settlementTime.getTime());
}

async function batchTransactions(context: SandboxContext, batchId: string): Promise<ProcessorTransaction[]> {
  if (!/^\d+$/.test(batchId)) return [];
  const at = context.now();
  const from = new Date(Number(batchId) * 1000);
  const to = new Date(Math.min(from.getTime() + 999, at.getTime()));
  const rows = await rowsWhere(context, batchedBetween(from, to));
  return rows.filter((row) => batchOf(context, row, at) === batchId).map((row) => describe(context, row, at));
}

/** Checks the card and records the charge, answering as the test card asks (approved, declined, lost, unreached). */
async function charge(context: SandboxContext, request: ChargeRequest): Promise<ChargeResult> {
  const checked = checkCharge(request, context.now());
  if ("refused" in checked) return checked.refused;
  const card = checked.card;
  const digits = request.card.number.replace(/[\s-]/g, "");
  if (digits === SANDBOX_CARDS.unreached) return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  const declined = digits === SANDBOX_CARDS.decline;
  const held = digits === SANDBOX_CARDS.review;
  const id = newTransactionId();
  const made = await bounded(context, "charge", async (tx) => {
    const createdAt = context.now();
    // Two instances sending the same request at once: one is made, the other is its duplicate.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox:${request.reference}`}))`);
    const { reference, amountCents } = request;
    const sent = { type: "charge", reference, amountCents, brand: card.brand, last4: card.last4 };
    if (await isDuplicate(tx, sent, createdAt)) return "duplicate" as const;
    await tx.insert(sandboxTransactions).values({
      id,
      createdAt,
      type: "charge",
      status: declined ? "declined" : held ? "review" : "approved",
      reference: request.reference,
      amountCents: request.amountCents,
      settlesAt: declined || held ? null : context.settlesAt(createdAt),
      brand: card.brand,
      last4: card.last4,
      message: declined ? PAYMENT_MESSAGES.declined : held ? HELD_MESSAGE : "Approved.",
    });
    return "made" as const;
  });
  if (made !== "made" && made !== "duplicate") return made;
  if (made === "duplicate") return { status: "declined", reason: "duplicate", message: SANDBOX_MESSAGES.duplicate };
  if (declined) return { status: "declined", reason: "card", message: PAYMENT_MESSAGES.declined };
  if (digits === SANDBOX_CARDS.lost) return { status: "unknown", message: PAYMENT_MESSAGES.unknown };
  if (held) return { status: "unknown", message: PAYMENT_MESSAGES.unknown, transactionId: id };
  return { status: "approved", transactionId: id, brand: card.brand, last4: card.last4 };
}

/** The processor's text on a held charge (Authorize.net's, for a transaction its fraud filters hold). */
const HELD_MESSAGE = "Your order has been received. Thank you for your business!";

/**
 * The merchant's decision on a charge held for review (Authorize.net's updateHeldTransactionRequest;
 * tests and e2e runs play the merchant): approved, it is captured (capturedPendingSettlement) and
 * settles at the cut-off after the decision; declined, nothing moved. Either way it goes into the
 * batch of that cut-off: `settlesAt` as the gateway's (default: the next Detroit midnight). Throws
 * when the transaction is not held.
 */
export async function decideReview(
  db: Database,
  transactionId: string,
  decision: "approve" | "decline",
  options: { now?: Date; settlesAt?: (decidedAt: Date) => Date } = {},
): Promise<void> {
  const cutoff = (options.settlesAt ?? nextDetroitMidnight)(options.now ?? new Date());
  const decided = await db
    .update(sandboxTransactions)
    .set(
      decision === "approve"
        ? { status: "approved", settlesAt: cutoff, message: "Approved." }
        : { status: "declined", settlesAt: cutoff, message: PAYMENT_MESSAGES.declined },
    )
    .where(and(eq(sandboxTransactions.id, transactionId), eq(sandboxTransactions.status, "review")))
    .returning({ id: sandboxTransactions.id });
  if (decided.length === 0) throw new Error(`sandbox: ${transactionId} is not held for review`);
}

/** What the duplicate check compares: the same kind of request for the same amount, card and reference. */
type Sent = { type: string; reference: string; amountCents: number; brand: string | null; last4: string | null };

/**
 * Whether the same request was made within the duplicate window before `at` (Authorize.net's
 * check, which includes the invoice number: only a re-sent ledger row is a duplicate).
 */
async function isDuplicate(tx: Tx, sent: Sent, at: Date): Promise<boolean> {
  if (!sent.brand || !sent.last4) return false;
  const [earlier] = await tx
    .select({ id: sandboxTransactions.id })
    .from(sandboxTransactions)
    .where(
      and(
        eq(sandboxTransactions.reference, sent.reference),
        eq(sandboxTransactions.type, sent.type),
        eq(sandboxTransactions.amountCents, sent.amountCents),
        eq(sandboxTransactions.brand, sent.brand),
        eq(sandboxTransactions.last4, sent.last4),
        gt(sandboxTransactions.createdAt, new Date(at.getTime() - DUPLICATE_WINDOW_MS)),
      ),
    )
    .limit(1);
  return Boolean(earlier);
}

const DUPLICATE: AdjustResult = { status: "declined", message: SANDBOX_MESSAGES.duplicate, duplicate: true };

/** Voids a charge not settled yet: records the void and marks the charge voided, under the charge's lock. */
async function voidCharge(context: SandboxContext, transactionId: string, reference: string): Promise<AdjustResult> {
  return bounded(context, "void", async (tx): Promise<AdjustResult> => {
    const found = await lockedCharge(tx, transactionId);
    if ("refused" in found) return { status: "declined", message: found.refused };
    const { charge } = found;
    const at = context.now();
    const sent = {
      type: "void",
      reference,
      amountCents: charge.amountCents,
      brand: charge.brand,
      last4: charge.last4,
    };
    if (await isDuplicate(tx, sent, at)) return DUPLICATE;
    if (found.voided) return { status: "declined", message: SANDBOX_MESSAGES.alreadyVoided };
    if (isBatched(context, charge, at)) return { status: "declined", message: SANDBOX_MESSAGES.settled };
    const id = newTransactionId();
    await tx.insert(sandboxTransactions).values({
      id,
      createdAt: at,
      type: "void",
      status: "approved",
      reference,
      parentId: charge.id,
      amountCents: charge.amountCents,
      brand: charge.brand,
      last4: charge.last4,
      message: "Approved.",
    });
    await tx.update(sandboxTransactions).set({ status: "voided" }).where(eq(sandboxTransactions.id, charge.id));
    return { status: "approved", transactionId: id };
  });
}

/** Refunds (part of) a settled charge, at most what is left of it, under the charge's lock. */
async function refund(
  context: SandboxContext,
  transactionId: string,
  amountCents: number,
  last4: string,
  reference: string,
): Promise<AdjustResult> {
  assertCents(amountCents);
  if (amountCents === 0) return { status: "declined", message: SANDBOX_MESSAGES.amount };
  if (!/^\d{4}$/.test(last4)) return { status: "declined", message: "The card's last four digits are required." };
  return bounded(context, "refund", async (tx): Promise<AdjustResult> => {
    const found = await lockedCharge(tx, transactionId);
    if ("refused" in found) return { status: "declined", message: found.refused };
    const { charge } = found;
    const at = context.now();
    if (await isDuplicate(tx, { type: "refund", reference, amountCents, brand: charge.brand, last4 }, at))
      return DUPLICATE;
    if (found.voided) return { status: "declined", message: SANDBOX_MESSAGES.voided };
    if (!isSettled(context, charge, at)) return { status: "declined", message: SANDBOX_MESSAGES.notSettled };
    if (charge.last4 !== last4) return { status: "declined", message: SANDBOX_MESSAGES.last4 };
    const refunded = await refundedOf(tx, charge.id);
    if (amountCents > charge.amountCents - refunded) return { status: "declined", message: SANDBOX_MESSAGES.overCap };
    const id = newTransactionId();
    await tx.insert(sandboxTransactions).values({
      id,
      createdAt: at,
      type: "refund",
      status: "approved",
      reference,
      parentId: charge.id,
      amountCents,
      settlesAt: context.settlesAt(at),
      brand: charge.brand,
      last4: charge.last4,
      message: "Approved.",
    });
    return { status: "approved", transactionId: id };
  });
}

/** The cents of the approved refunds of the charge `chargeId` so far. */
async function refundedOf(tx: Tx, chargeId: string): Promise<number> {
  const [done] = await tx
    .select({ cents: sql<string | number | null>`sum(${sandboxTransactions.amountCents})` })
    .from(sandboxTransactions)
    .where(
      and(
        eq(sandboxTransactions.parentId, chargeId),
        eq(sandboxTransactions.type, "refund"),
        eq(sandboxTransactions.status, "approved"),
      ),
    );
  return Number(done?.cents ?? 0);
}

/** Every transaction of the books made since a moment, oldest first, as the processor describes it now. */
async function transactionsSince(context: SandboxContext, since: Date): Promise<ProcessorTransaction[]> {
  const db = await context.database();
  const at = context.now();
  const rows = await db
    .select()
    .from(sandboxTransactions)
    .where(gte(sandboxTransactions.createdAt, since))
    .orderBy(sandboxTransactions.createdAt);
  return rows.map((row) => describe(context, row, at));
}
