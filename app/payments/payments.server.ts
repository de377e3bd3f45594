import { createHash, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database, DbOrTx } from "@db/client.server";
import { PAYMENT_PURPOSES, payments, type LedgerIntent, type LedgerState, type PaymentPurpose } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { ChargeRequest, ChargeResult, PaymentGateway } from "./gateway";
import { tableOf, type LedgerRecord } from "./record";
import { ledgerReference, PAYMENT_MESSAGES } from "./gateway";
import { paymentGateway } from "./gateway.server";
import { cardDigits, checkCardNumber } from "./card";
import { assertCents } from "./money";
import { scrubCardNumbers } from "./redact";

/**
 * The ledger's charges (issue 16, issue 36): the one way to charge a card, `chargeOnce`.
 *
 * THE SEQUENCE (why it is this one)
 *
 *   1. INSERT the charge as 'requested' … ON CONFLICT (idempotency_key) WHERE state <> 'declined'
 *      DO NOTHING, committed before anything is sent (by itself, or — `requestCharge` — inside the
 *      caller's transaction that holds the lock of what is paid for: a booking's move).
 *      Inserted: this call owns the request; go on. Conflict: another call with this key owns a
 *      live row: its outcome is this call's outcome (step 4), nothing is sent.
 *   2. Ask the processor, with the row's reference ("L123") set on the transaction, so a charge
 *      whose answer is lost can be found by it (./reconcile.server.ts). No transaction is open
 *      and no row is locked while the network call runs.
 *   3. UPDATE the row with the answer: succeeded (transaction id, brand, last four), declined
 *      (message), or unknown (a timeout: the reconciler asks the processor again).
 *   4. A call that lost step 1 to a request still in flight polls the row until it is answered.
 *
 * What the charge serves (the booking, order, invoice or move) is written in its own transaction
 * AFTER the charge answered, and marks the charge resolved there (`linkPayment`). A charge that
 * succeeded and is never resolved is given back by the reconciler.
 */

export type ChargeOnceInput = Omit<ChargeRequest, "currency" | "reference"> & {
  purpose: PaymentPurpose;
  /** The business change it serves (default: the purpose's own: book, checkout, invoice). */
  intent?: LedgerIntent;
  /** What is paid for, when it already exists (or later: `linkPayment`). */
  reference?: LedgerRecord;
  /** Every field that set the amount: a re-post of the key with others is refused (PricedKeyError). */
  priced?: Record<string, unknown>;
};

/**
 * A charge as the forms and pages see it, its status DERIVED from the ledger: approved (taken,
 * nothing given back in full), declined, pending (no answer, or an unknown one: never call it
 * paid), voided (cancelled before it settled), refunded (all of it given back).
 */
export type PaymentStatus = "approved" | "declined" | "pending" | "voided" | "refunded";

export type PaymentOutcome = {
  paymentId: number;
  status: PaymentStatus;
  amountCents: number;
  transactionId?: string;
  brand?: string;
  last4?: string;
  /** For the visitor: the decline's reason, or that the outcome is being checked. */
  message?: string;
  /** True when an earlier call with this key gave this outcome and nothing was sent now. */
  repeated: boolean;
};

export type ChargeOnceOptions = {
  gateway?: PaymentGateway;
  /** How long a call waits for another call's in-flight request (default PAYMENT_TIMEOUT_MS + 5 s). */
  waitMs?: number;
  pollMs?: number;
  leaseMs?: number;
};

/** The predicate of payments_idempotency_key_live_idx, which ON CONFLICT must name to use it. */
const LIVE_PREDICATE = sql.raw(`state <> 'declined'`);
const isLive = ne(payments.state, "declined");

export type LedgerRow = typeof payments.$inferSelect;

const DEFAULT_INTENT: Record<PaymentPurpose, LedgerIntent> = { service: "book", order: "checkout", invoice: "invoice" };

/** Step 1 alone: the charge's row, committed with the caller's transaction (or at once). */
export async function requestCharge(
  db: DbOrTx,
  input: Pick<ChargeOnceInput, "purpose" | "intent" | "reference" | "amountCents" | "idempotencyKey" | "priced">,
  processor: PaymentGateway["name"],
): Promise<number | undefined> {
  assertCents(input.amountCents);
  if (input.amountCents === 0) throw new RangeError("a charge of 0 cents");
  if (!(PAYMENT_PURPOSES as readonly string[]).includes(input.purpose))
    throw new TypeError(`unknown payment purpose ${input.purpose}`);
  const key = input.idempotencyKey;
  if (!key || key.length > 200) throw new TypeError("an idempotency key of 1 to 200 characters is required");
  const [claimed] = await db
    .insert(payments)
    .values({
      kind: "charge",
      state: "requested",
      amountCents: input.amountCents,
      currency: "USD",
      purpose: input.purpose,
      intent: input.intent ?? DEFAULT_INTENT[input.purpose],
      idempotencyKey: key,
      processor,
      referenceTable: input.reference ? tableOf(input.reference) : undefined,
      referenceId: input.reference?.id,
      changeKey: key,
      pricedDigest: pricedDigest(input.amountCents, input.priced),
    })
    .onConflictDoNothing({ target: payments.idempotencyKey, where: LIVE_PREDICATE })
    .returning({ id: payments.id });
  if (!claimed) await assertSamePriced(db, key, input.amountCents, input.priced);
  return claimed?.id;
}

/**
 * What a key was priced with: the amount and every field that set it (the day and window, the
 * cart's lines, the invoice's amount, the move's new window), as a digest kept on the charge.
 */
export function pricedDigest(amountCents: number, priced: Record<string, unknown> = {}): string {
  const sorted = Object.keys(priced)
    .sort()
    .map((name) => [name, priced[name]]);
  return createHash("sha256")
    .update(JSON.stringify([amountCents, sorted]))
    .digest("base64url");
}

/** Thrown when a key that charged once comes back with other priced fields: never stored at the first amount. */
export class PricedKeyError extends Error {
  constructor(readonly paymentId: number) {
    super(`payment ${paymentId}: its key came back with other priced fields`);
    this.name = "PricedKeyError";
  }
}

/** The live charge of `key` must have been priced as this request is. */
export async function assertSamePriced(
  db: DbOrTx,
  key: string,
  amountCents: number,
  priced?: Record<string, unknown>,
): Promise<void> {
  const [live] = await db
    .select({ id: payments.id, digest: payments.pricedDigest })
    .from(payments)
    .where(and(eq(payments.idempotencyKey, key), isLive))
    .limit(1);
  if (live?.digest && live.digest !== pricedDigest(amountCents, priced)) throw new PricedKeyError(live.id);
}

/** How long a sender holds a row it sends: its processor call and the answer's write, with room to spare. */
export const paymentLeaseMs = () => env().PAYMENT_LEASE_MS ?? env().PAYMENT_TIMEOUT_MS * 2 + 5_000;

/** A row claimed by one holder: only an answer carrying its token completes the row. */
export type Lease = { id: number; token: string };

/**
 * Claims a row for one holder, in the statement that checks nobody holds it: the row is in one
 * of `states` and its lease is free (never taken, released, or run out). `firstSend`: only a row
 * never sent (a charge is sent once, by its request; the reconciler never sends one).
 */
export async function claimRow(
  db: DbOrTx,
  id: number,
  {
    states,
    firstSend = false,
    leaseMs = paymentLeaseMs(),
  }: {
    states: readonly LedgerState[];
    firstSend?: boolean;
    leaseMs?: number;
  },
): Promise<{ row: LedgerRow; lease: Lease } | undefined> {
  const token = randomUUID();
  const [row] = await db
    .update(payments)
    .set({ leaseToken: token, leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(
      and(
        eq(payments.id, id),
        inArray(payments.state, [...states]),
        or(isNull(payments.leaseUntil), sql`${payments.leaseUntil} < now()`),
        firstSend ? eq(payments.sends, 0) : undefined,
      ),
    )
    .returning();
  return row ? { row, lease: { id, token } } : undefined;
}

/** Counts a send under the lease, just before the processor is asked; false when the lease was lost (send nothing). */
export async function noteSend(db: DbOrTx, lease: Lease): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ sends: sql`${payments.sends} + 1`, updatedAt: sql`now()` })
    .where(and(eq(payments.id, lease.id), eq(payments.leaseToken, lease.token)))
    .returning({ id: payments.id });
  return rows.length === 1;
}

/** Gives the lease up without an answer (the row waits for the next round). */
export async function releaseLease(db: DbOrTx, lease: Lease): Promise<void> {
  await db
    .update(payments)
    .set({ leaseUntil: null })
    .where(and(eq(payments.id, lease.id), eq(payments.leaseToken, lease.token)));
}

/**
 * An answer that reached a row its sender no longer holds (it was decided, or taken over): kept
 * beside the decision as what it is, for the reconciler to act on. Returns the row as it stands.
 */
export async function recordLate(
  db: DbOrTx,
  id: number,
  late: { status: "approved" | "declined" | "unknown"; transactionId?: string | null },
): Promise<LedgerRow> {
  const [row] = await db
    .update(payments)
    .set({
      lateStatus: late.status,
      lateTransactionId: late.transactionId ?? null,
      lateAt: sql`now()`,
      lateSettledAt: null,
    })
    .where(eq(payments.id, id))
    .returning();
  log.warn({ paymentId: id, late: late.status, state: row?.state }, "processor answer came after the row was decided");
  return row!;
}

export async function chargeOnce(
  db: Database,
  input: ChargeOnceInput,
  options: ChargeOnceOptions = {},
): Promise<PaymentOutcome> {
  refuseTransaction(db, "chargeOnce");
  const gateway = options.gateway ?? paymentGateway(db);
  const waitMs = options.waitMs ?? env().PAYMENT_TIMEOUT_MS + 5_000;
  const pollMs = options.pollMs ?? 200;

  // A few rounds at most: a round is lost only when the live request we collided with was
  // declined between our insert and our read.
  for (let round = 0; round < 5; round++) {
    const id = await requestCharge(db, input, gateway.name);
    if (id !== undefined) return performCharge(db, id, input, { gateway, leaseMs: options.leaseMs });
    const earlier = await earlierOutcome(db, input.idempotencyKey, waitMs, pollMs);
    if (earlier) {
      if (earlier.purpose !== input.purpose)
        throw new Error(`idempotency key reused for another purpose (payment ${earlier.id})`);
      const outcome = await toOutcome(db, earlier, true);
      log.info(
        logFields(outcome, earlier),
        "card payment repeated: the earlier request's outcome is returned, nothing sent",
      );
      return outcome;
    }
  }
  throw new Error("could not claim the payment's idempotency key");
}

/** Steps 2 and 3 for a committed 'requested' charge: the processor call (no transaction, no lock) and its answer. */
export async function performCharge(
  db: Database,
  paymentId: number,
  input: Omit<ChargeOnceInput, "purpose" | "intent" | "reference">,
  { gateway = paymentGateway(db), leaseMs }: { gateway?: PaymentGateway; leaseMs?: number } = {},
): Promise<PaymentOutcome> {
  refuseTransaction(db, "performCharge");
  // One holder sends a charge, once: a twin, a retry or the reconciler finds it claimed.
  const claimed = await claimRow(db, paymentId, { states: ["requested"], firstSend: true, leaseMs });
  if (!claimed || !(await noteSend(db, claimed.lease))) {
    const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
    if (!row) throw new Error(`no payment ${paymentId}`);
    return toOutcome(db, row, true);
  }
  const lease = claimed.lease;
  let result: ChargeResult;
  try {
    result = await gateway.charge({
      amountCents: input.amountCents,
      currency: "USD",
      idempotencyKey: input.idempotencyKey,
      card: input.card,
      description: input.description,
      customer: input.customer,
      billing: input.billing,
      invoiceNumber: input.invoiceNumber,
      reference: ledgerReference(paymentId),
    });
  } catch (error) {
    // Adapters answer every processor outcome; a throw is a bug. Whether anything was sent is not
    // known: the row becomes unknown (the reconciler asks the processor) and the error goes up
    // without its text, which could quote what was being sent.
    log.error({ paymentId, processor: gateway.name, error: (error as Error)?.name }, "card gateway threw");
    await recordAnswer(db, lease, { state: "unknown", message: PAYMENT_MESSAGES.unknown });
    throw new Error(`the card gateway failed (payment ${paymentId})`);
  }

  // Refused and unknown requests keep the brand and last four too (staff reconciling one look for
  // "Visa ending 4242"), from our own reading of the number; only for a number long enough.
  const digits = cardDigits(input.card.number);
  const seen =
    digits && digits.length >= 12 ? { brand: checkCardNumber(digits).brand ?? null, last4: digits.slice(-4) } : {};
  const answer =
    result.status === "approved"
      ? {
          state: "succeeded" as const,
          processorTransactionId: result.transactionId,
          brand: result.brand,
          last4: result.last4,
          message: null,
        }
      : result.status === "declined"
        ? { ...seen, state: "declined" as const, message: scrubCardNumbers(result.message) }
        : {
            ...seen,
            state: "unknown" as const,
            processorTransactionId: result.transactionId ?? null,
            message: scrubCardNumbers(result.message),
          };
  const row = await recordAnswer(db, lease, answer, result.status === "approved" ? result : undefined);
  const outcome = await toOutcome(db, row, false);
  const fields = logFields(outcome, row);
  if (outcome.status === "pending") log.warn(fields, "card payment outcome unknown: recorded as unknown");
  else log.info(fields, "card payment answered");
  return outcome;
}

/**
 * Writes the processor's answer to a row its sender still holds (the lease's token, whatever the
 * time: nobody else decided it meanwhile). A row decided or taken over meanwhile keeps its
 * decision: the answer is recorded beside it as late (`recordLate`). Retried a few times: after
 * an approval this row is the only proof in our database that money was taken; if it still
 * cannot be written, the reconciler asks the processor.
 */
export async function recordAnswer(
  db: Database,
  lease: Lease,
  answer: Partial<Pick<LedgerRow, "state" | "processorTransactionId" | "brand" | "last4" | "message">>,
  approved?: { transactionId: string; brand: string; last4: string },
): Promise<LedgerRow> {
  const paymentId = lease.id;
  let lastError: unknown;
  for (let tries = 0; tries < 3; tries++) {
    try {
      const [row] = await db
        .update(payments)
        .set({ ...answer, leaseUntil: null, updatedAt: sql`now()` })
        .where(
          and(
            eq(payments.id, paymentId),
            eq(payments.leaseToken, lease.token),
            inArray(payments.state, ["requested", "unknown"]),
          ),
        )
        .returning();
      if (row) return row;
      const status = answer.state === "succeeded" ? "approved" : answer.state === "declined" ? "declined" : "unknown";
      return await recordLate(db, paymentId, { status, transactionId: answer.processorTransactionId });
    } catch (error) {
      lastError = error;
      await sleep(200 * (tries + 1));
    }
  }
  log.error(
    {
      paymentId,
      state: answer.state,
      transactionId: approved?.transactionId,
      brand: approved?.brand,
      last4: approved?.last4,
      error: (lastError as Error)?.message,
    },
    "processor answered but the ledger row could not be completed: the reconciler will ask the processor",
  );
  throw new Error(`the answer for payment ${paymentId} could not be recorded`);
}

/** Step 4: the live request with this key, once it is answered (or the wait is over). */
async function earlierOutcome(
  db: Database,
  key: string,
  waitMs: number,
  pollMs: number,
): Promise<LedgerRow | undefined> {
  const age = sql<number>`(extract(epoch from (now() - ${payments.createdAt})) * 1000)::float8`;
  const [live] = await db
    .select({ row: payments, ageMs: age })
    .from(payments)
    .where(and(eq(payments.idempotencyKey, key), isLive))
    .limit(1);
  if (!live) return undefined;
  const deadline = Date.now() + Math.max(0, waitMs - Number(live.ageMs));
  let current = live.row;
  // Followed by id from here: if it is declined meanwhile, that decline is the answer.
  while (current.state === "requested" && Date.now() < deadline) {
    await sleep(pollMs);
    const [again] = await db.select().from(payments).where(eq(payments.id, current.id));
    if (!again) return undefined;
    current = again;
  }
  return current;
}

/** Thrown by `linkPayment` when the charge is no longer there to pay for it (given back by the reconciler). */
export class PaymentSettledError extends Error {
  constructor(readonly paymentId: number) {
    super(`payment ${paymentId} was settled before its submission was stored`);
    this.name = "PaymentSettledError";
  }
}

/**
 * The business side of a charge commits (inside the submission's transaction): what it paid for,
 * and that it is resolved. Refused, with PaymentSettledError, when the reconciler has given the
 * charge back meanwhile (its store came too late): the submission rolls back rather than stand on
 * a voided charge. The row is locked first, so the reconciler's undo and this wait for each other.
 */
export async function linkPayment(db: DbOrTx, paymentId: number, reference: LedgerRecord): Promise<void> {
  const rows = await db
    .update(payments)
    .set({
      referenceTable: tableOf(reference),
      referenceId: reference.id,
      resolvedAt: sql`now()`,
      // The visitor's page and receipt say a charge that succeeded; a pending one is told later.
      toldAt: sql`case when ${payments.state} = 'succeeded' then now() end`,
    })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.kind, "charge"),
        inArray(payments.state, ["succeeded", "requested", "unknown"]),
        isNull(payments.resolvedAt),
      ),
    )
    .returning({ id: payments.id });
  if (rows.length === 0) throw new PaymentSettledError(paymentId);
}

/** The charge with this idempotency key that took, or may have taken, money; whether a record stands on it yet. */
export async function liveCharge(
  db: DbOrTx,
  idempotencyKey: string,
): Promise<(PaymentOutcome & { linked: boolean }) | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.idempotencyKey, idempotencyKey), eq(payments.kind, "charge"), isLive))
    .limit(1);
  if (!row) return undefined;
  const outcome = await toOutcome(db, row, true);
  return { ...outcome, linked: row.resolvedAt !== null && row.referenceId !== null };
}

export async function findPayment(db: DbOrTx, paymentId: number): Promise<PaymentOutcome | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ? toOutcome(db, row, false) : undefined;
}

/** What has been given back of a charge (succeeded voids and refunds) and what is on its way back (requested, unknown). */
export async function givenBack(
  db: DbOrTx,
  chargeId: number,
): Promise<{ backCents: number; voided: boolean; pendingCents: number }> {
  const [sums] = await db
    .select({
      back: sql<number>`coalesce(sum(${payments.amountCents}) filter (where ${payments.state} = 'succeeded'), 0)::int`,
      voided: sql<boolean>`coalesce(bool_or(${payments.kind} = 'void' and ${payments.state} = 'succeeded'), false)`,
      pending: sql<number>`coalesce(sum(${payments.amountCents}) filter (where ${payments.state} in ('requested', 'unknown')), 0)::int`,
    })
    .from(payments)
    .where(and(eq(payments.parentId, chargeId), ne(payments.kind, "charge")));
  return {
    backCents: Number(sums?.back ?? 0),
    voided: Boolean(sums?.voided),
    pendingCents: Number(sums?.pending ?? 0),
  };
}

/** A charge row's status for the forms, derived from it and the rows that acted on it. */
export async function toOutcome(db: DbOrTx, row: LedgerRow, repeated: boolean): Promise<PaymentOutcome> {
  let status: PaymentStatus;
  if (row.state === "declined") status = "declined";
  else if (row.state !== "succeeded") status = "pending";
  else {
    const back = await givenBack(db, row.id);
    status = back.voided ? "voided" : back.backCents >= row.amountCents ? "refunded" : "approved";
  }
  return {
    paymentId: row.id,
    status,
    amountCents: row.amountCents,
    ...(row.processorTransactionId ? { transactionId: row.processorTransactionId } : {}),
    ...(row.brand ? { brand: row.brand } : {}),
    ...(row.last4 ? { last4: row.last4 } : {}),
    ...(row.message ? { message: row.message } : status === "pending" ? { message: PAYMENT_MESSAGES.unknown } : {}),
    repeated,
  };
}

/** What a payment log line says: never more than brand and last four of the card. */
function logFields(outcome: PaymentOutcome, row: LedgerRow) {
  return {
    paymentId: outcome.paymentId,
    purpose: row.purpose,
    processor: row.processor,
    amountCents: outcome.amountCents,
    status: outcome.status,
    transactionId: outcome.transactionId,
    brand: outcome.brand,
    last4: outcome.last4,
    repeated: outcome.repeated,
  };
}

export function refuseTransaction(db: DbOrTx, what: string): void {
  if (db instanceof PgTransaction) {
    throw new Error(
      `${what} runs outside transactions: the record of a charge must outlive a rollback, and no lock may be held during the processor call`,
    );
  }
}

/** The charges of a business record, newest first (for give-backs and the ledger's sums). */
export async function chargesOf(db: DbOrTx, reference: LedgerRecord): Promise<LedgerRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.kind, "charge"),
        eq(payments.referenceTable, tableOf(reference)),
        eq(payments.referenceId, reference.id),
      ),
    )
    .orderBy(desc(payments.id));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many charges for a record and intent were declined in the last hour (a booking's link is no card-testing tool). */
export async function declinedLastHour(db: DbOrTx, reference: LedgerRecord, intent: LedgerIntent): Promise<number> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(
      and(
        eq(payments.referenceTable, tableOf(reference)),
        eq(payments.referenceId, reference.id),
        eq(payments.intent, intent),
        eq(payments.kind, "charge"),
        eq(payments.state, "declined"),
        sql`${payments.createdAt} > now() - interval '1 hour'`,
      ),
    );
  return Number(n);
}
