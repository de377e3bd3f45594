import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database, DbOrTx } from "@db/client.server";
import { PAYMENT_PURPOSES, payments, type PaymentPurpose, type PaymentStatus } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { ChargeRequest, ChargeResult, PaymentGateway } from "./gateway";
import { PAYMENT_MESSAGES } from "./gateway";
import { paymentGateway } from "./gateway.server";
import { cardDigits, checkCardNumber } from "./card";
import { assertCents } from "./money";
import { scrubCardNumbers } from "./redact";

/**
 * Payment records and the one way to charge a card: `chargeOnce`.
 *
 * THE SEQUENCE (why it is this one)
 *
 *   1. INSERT the attempt as 'pending' … ON CONFLICT (idempotency_key) WHERE
 *      live DO NOTHING — a statement of its own, committed at once.
 *      Inserted: this call owns the attempt; go on. Conflict: another call
 *      with this key owns a live attempt (pending, approved, voided,
 *      refunded): its outcome is this call's outcome (step 4), nothing is sent.
 *   2. Ask the processor. No transaction is open and no row is locked while
 *      the network call runs (up to PAYMENT_TIMEOUT_MS): a second request
 *      with the same key is not stuck behind an uncommitted insert on the
 *      unique index, and nothing else waits on it.
 *   3. UPDATE the row with the answer: approved (transaction id, brand, last
 *      four), declined / failed (message), or — when the answer is unknown —
 *      it stays 'pending' with the message and updated_at set.
 *   4. A call that lost step 1 to a request still in flight polls the row
 *      until it is answered (at most PAYMENT_TIMEOUT_MS + 5 s after the row was
 *      created; an older unanswered row belongs to a process that died
 *      mid-call and is returned as pending at once).
 *
 * The record of a charge must outlive whatever happens to the caller's
 * transaction, so chargeOnce refuses to run inside one (a rollback would
 * erase the proof that money was taken) and writes through the database
 * handle. On PGlite (one connection) calling it from inside a
 * `db.transaction(...)` callback would also wait forever for that transaction.
 *
 * A booking (or an invoice payment) is therefore written in its own
 * transaction AFTER chargeOnce answered 'approved' — never stored as paid
 * before. Where a place must be held first (the last place of a service
 * slot), the caller holds it in a short transaction before step 1 and
 * confirms or releases it after step 3:
 *
 *   hold the place (tx: lock the slot, count, insert as 'awaiting payment')
 *   → chargeOnce → approved: one tx marks it paid, links the payment
 *     (`linkPayment`), queues the e-mails; declined/failed: release the place;
 *     pending: keep the place, tell the visitor the payment is being checked.
 *
 * If the booking cannot be stored after an approval, `voidPayment` gives the
 * money back (same day, nothing settles).
 *
 * Declined and failed attempts do not hold the key (the unique index leaves
 * them out): the visitor fixes the card and pays from the same form, and each
 * refused attempt stays as a row of its own. A decline took no money, so this
 * never charges twice.
 */

export type ChargeOnceInput = Omit<ChargeRequest, "currency"> & {
  purpose: PaymentPurpose;
  /** What is paid for, when it already exists (or later: `linkPayment`). */
  reference?: { table: string; id: number };
};

export type PaymentOutcome = {
  paymentId: number;
  /** approved | declined | failed | pending (unknown: never call it paid) | voided | refunded */
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
  /** How long a call waits for another call's in-flight attempt (default PAYMENT_TIMEOUT_MS + 5 s). */
  waitMs?: number;
  pollMs?: number;
};

/** The predicate of payments_idempotency_key_live_idx, which ON CONFLICT must name to use it. */
const LIVE_PREDICATE = sql.raw(`status not in ('declined', 'failed')`);
const isLive = sql`${payments.status} not in ('declined', 'failed')`;

type PaymentRow = typeof payments.$inferSelect;

export async function chargeOnce(
  db: Database,
  input: ChargeOnceInput,
  options: ChargeOnceOptions = {},
): Promise<PaymentOutcome> {
  refuseTransaction(db, "chargeOnce");
  assertCents(input.amountCents);
  if (input.amountCents === 0) throw new RangeError("a charge of 0 cents");
  if (!(PAYMENT_PURPOSES as readonly string[]).includes(input.purpose))
    throw new TypeError(`unknown payment purpose ${input.purpose}`);
  const key = input.idempotencyKey;
  if (!key || key.length > 200) throw new TypeError("an idempotency key of 1 to 200 characters is required");
  const gateway = options.gateway ?? paymentGateway();
  const waitMs = options.waitMs ?? env().PAYMENT_TIMEOUT_MS + 5_000;
  const pollMs = options.pollMs ?? 200;

  // A few rounds at most: a round is lost only when the live attempt we
  // collided with was declined between our insert and our read.
  for (let round = 0; round < 5; round++) {
    const [claimed] = await db
      .insert(payments)
      .values({
        amountCents: input.amountCents,
        currency: "USD",
        purpose: input.purpose,
        status: "pending",
        idempotencyKey: key,
        processor: gateway.name,
        referenceTable: input.reference?.table,
        referenceId: input.reference?.id,
      })
      .onConflictDoNothing({ target: payments.idempotencyKey, where: LIVE_PREDICATE })
      .returning({ id: payments.id });
    if (claimed) return attempt(db, gateway, claimed.id, input);

    const earlier = await earlierOutcome(db, key, waitMs, pollMs);
    if (earlier) {
      if (earlier.purpose !== input.purpose)
        throw new Error(`idempotency key reused for another purpose (payment ${earlier.id})`);
      const outcome = toOutcome(earlier, true);
      log.info(
        logFields(outcome, earlier),
        "card payment repeated: the earlier attempt's outcome is returned, nothing sent",
      );
      return outcome;
    }
  }
  throw new Error("could not claim the payment's idempotency key");
}

/** Steps 2 and 3: the processor call (no transaction, no lock) and the answer's record. */
async function attempt(
  db: Database,
  gateway: PaymentGateway,
  paymentId: number,
  input: ChargeOnceInput,
): Promise<PaymentOutcome> {
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
    });
  } catch (error) {
    // Adapters answer every processor outcome; a throw is a bug. Whether
    // anything was sent is not known, so the attempt stays pending (it can
    // only be resolved by a person) and the error goes up without its text,
    // which could quote what was being sent.
    log.error({ paymentId, processor: gateway.name, error: (error as Error)?.name }, "card gateway threw");
    await recordAnswer(db, paymentId, { status: "pending", message: PAYMENT_MESSAGES.unknown });
    throw new Error(`the card gateway failed (payment ${paymentId})`);
  }

  // Refused and unknown attempts keep the brand and last four too (staff
  // reconciling a pending one look for "Visa ending 4242"), from our own
  // reading of the number; only for a number long enough to be a card's.
  const digits = cardDigits(input.card.number);
  const seen =
    digits && digits.length >= 12 ? { brand: checkCardNumber(digits).brand ?? null, last4: digits.slice(-4) } : {};
  const answer =
    result.status === "approved"
      ? {
          status: "approved" as const,
          processorTransactionId: result.transactionId,
          brand: result.brand,
          last4: result.last4,
          message: null,
        }
      : result.status === "declined"
        ? {
            ...seen,
            status: result.reason === "card" ? ("declined" as const) : ("failed" as const),
            message: scrubCardNumbers(result.message),
          }
        : {
            ...seen,
            status: "pending" as const,
            processorTransactionId: result.transactionId ?? null,
            message: scrubCardNumbers(result.message),
          };
  const row = await recordAnswer(db, paymentId, answer, result.status === "approved" ? result : undefined);
  const outcome = toOutcome(row, false);
  const fields = logFields(outcome, row);
  if (outcome.status === "pending") log.warn(fields, "card payment outcome unknown: recorded as pending");
  else log.info(fields, "card payment answered");
  return outcome;
}

/**
 * Writes the processor's answer. Retried a few times: after an approval this
 * row is the only proof in our database that money was taken. If it still
 * cannot be written, the log line carries the transaction id for the
 * reconciliation and the caller gets an error (so it stores nothing as paid).
 */
async function recordAnswer(
  db: Database,
  paymentId: number,
  answer: Partial<Pick<PaymentRow, "status" | "processorTransactionId" | "brand" | "last4" | "message">>,
  approved?: { transactionId: string; brand: string; last4: string },
): Promise<PaymentRow> {
  let lastError: unknown;
  for (let tries = 0; tries < 3; tries++) {
    try {
      const [row] = await db
        .update(payments)
        .set({ ...answer, updatedAt: sql`now()` })
        .where(eq(payments.id, paymentId))
        .returning();
      if (row) return row;
      throw new Error(`payment ${paymentId} disappeared`);
    } catch (error) {
      lastError = error;
      await sleep(200 * (tries + 1));
    }
  }
  log.error(
    {
      paymentId,
      status: answer.status,
      transactionId: approved?.transactionId,
      brand: approved?.brand,
      last4: approved?.last4,
      error: (lastError as Error)?.message,
    },
    "card payment answered but its record could not be written: reconcile by hand",
  );
  throw new Error(`the answer for payment ${paymentId} could not be recorded`);
}

/** Step 4: the live attempt with this key, once it is answered (or the wait is over). */
async function earlierOutcome(
  db: Database,
  key: string,
  waitMs: number,
  pollMs: number,
): Promise<PaymentRow | undefined> {
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
  while (current.status === "pending" && current.updatedAt === null && Date.now() < deadline) {
    await sleep(pollMs);
    const [again] = await db.select().from(payments).where(eq(payments.id, current.id));
    if (!again) return undefined;
    current = again;
  }
  return current;
}

/** What the reconciliation writes as the reference of a charge it is settling (./reconcile.server.ts). */
export const SETTLING_REFERENCE = "reconciliation";

/** Thrown by `linkPayment` when the charge is no longer there to pay for it (voided, or being settled). */
export class PaymentSettledError extends Error {
  constructor(readonly paymentId: number) {
    super(`payment ${paymentId} was settled before its submission was stored`);
    this.name = "PaymentSettledError";
  }
}

/**
 * Sets what a payment paid for (inside the submission's transaction). Refused, with
 * PaymentSettledError, when the reconciliation has taken the charge meanwhile (an orphan whose
 * store came too late): the submission rolls back rather than stand on a voided charge.
 */
export async function linkPayment(
  db: DbOrTx,
  paymentId: number,
  reference: { table: string; id: number },
): Promise<void> {
  const rows = await db
    .update(payments)
    .set({ referenceTable: reference.table, referenceId: reference.id })
    .where(
      and(
        eq(payments.id, paymentId),
        inArray(payments.status, ["approved", "pending"]),
        or(isNull(payments.referenceTable), ne(payments.referenceTable, SETTLING_REFERENCE)),
      ),
    )
    .returning({ id: payments.id });
  if (rows.length === 0) throw new PaymentSettledError(paymentId);
}

/** The attempt with this idempotency key that took, or may have taken, money; whether it pays for a record yet. */
export async function liveCharge(
  db: DbOrTx,
  idempotencyKey: string,
): Promise<(PaymentOutcome & { linked: boolean }) | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.idempotencyKey, idempotencyKey), isLive))
    .limit(1);
  return row
    ? { ...toOutcome(row, true), linked: row.referenceId !== null && row.referenceTable !== SETTLING_REFERENCE }
    : undefined;
}

export async function findPayment(db: DbOrTx, paymentId: number): Promise<PaymentOutcome | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ? toOutcome(row, false) : undefined;
}

/**
 * Cancels an approved charge (before the day's settlement: no money moves),
 * e.g. when the booking it paid for could not be stored. Only an approved
 * payment is voided; the status changes only when the processor agrees.
 */
export async function voidPayment(
  db: Database,
  paymentId: number,
  options: { gateway?: PaymentGateway } = {},
): Promise<PaymentOutcome> {
  return adjust(db, paymentId, "voided", options.gateway, (gateway, row) => gateway.void(row.processorTransactionId!));
}

/** Gives back what remains of an approved (settled) charge: all of it, less any part refunded before. */
export async function refundPayment(
  db: Database,
  paymentId: number,
  options: { gateway?: PaymentGateway } = {},
): Promise<PaymentOutcome> {
  return adjust(db, paymentId, "refunded", options.gateway, (gateway, row) =>
    gateway.refund(row.processorTransactionId!, row.amountCents - row.refundedCents, row.last4 ?? ""),
  );
}

/**
 * Gives back part of an approved (settled) charge: a visit moved to a cheaper window. The payment
 * stays approved with `refundedCents` raised (refunded once nothing remains). The caller makes
 * sure one change refunds once (the booking's change claim); a part larger than what remains is refused.
 */
export async function refundPart(
  db: Database,
  paymentId: number,
  cents: number,
  options: { gateway?: PaymentGateway } = {},
): Promise<{ ok: true } | { ok: false; message: string }> {
  refuseTransaction(db, "refundPart");
  assertCents(cents);
  const gateway = options.gateway ?? paymentGateway();
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error(`no payment ${paymentId}`);
  if (row.status !== "approved" || cents <= 0 || cents > row.amountCents - row.refundedCents)
    return { ok: false, message: "Only what remains of an approved payment can be refunded." };
  if (row.processor !== gateway.name)
    throw new Error(`payment ${paymentId} was made with ${row.processor}, not ${gateway.name}`);
  const result = await gateway.refund(row.processorTransactionId!, cents, row.last4 ?? "");
  if (result.status !== "approved") {
    log.warn(
      { paymentId, processor: gateway.name, outcome: result.status, cents },
      "part of a payment could not be refunded",
    );
    return { ok: false, message: scrubCardNumbers(result.message) };
  }
  await db
    .update(payments)
    .set({
      refundedCents: sql`${payments.refundedCents} + ${cents}`,
      status: sql`case when ${payments.refundedCents} + ${cents} >= ${payments.amountCents} then 'refunded' else 'approved' end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "approved")));
  log.info(
    { paymentId, processor: gateway.name, cents, adjustmentId: result.transactionId },
    "part of a card payment refunded",
  );
  return { ok: true };
}

async function adjust(
  db: Database,
  paymentId: number,
  to: "voided" | "refunded",
  gatewayOption: PaymentGateway | undefined,
  call: (gateway: PaymentGateway, row: PaymentRow) => ReturnType<PaymentGateway["void"]>,
): Promise<PaymentOutcome> {
  refuseTransaction(db, to === "voided" ? "voidPayment" : "refundPayment");
  const gateway = gatewayOption ?? paymentGateway();
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error(`no payment ${paymentId}`);
  if (row.status !== "approved") return { ...toOutcome(row, false), message: `Only an approved payment can be ${to}.` };
  if (row.processor !== gateway.name)
    throw new Error(`payment ${paymentId} was made with ${row.processor}, not ${gateway.name}`);
  const result = await call(gateway, row);
  if (result.status !== "approved") {
    log.warn({ paymentId, processor: gateway.name, outcome: result.status, to }, `card payment could not be ${to}`);
    return { ...toOutcome(row, false), message: scrubCardNumbers(result.message) };
  }
  const [changed] = await db
    .update(payments)
    .set({ status: to, updatedAt: sql`now()`, ...(to === "refunded" ? { refundedCents: row.amountCents } : {}) })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "approved")))
    .returning();
  log.info({ paymentId, processor: gateway.name, to, adjustmentId: result.transactionId }, `card payment ${to}`);
  return toOutcome(changed ?? row, false);
}

function toOutcome(row: PaymentRow, repeated: boolean): PaymentOutcome {
  return {
    paymentId: row.id,
    status: row.status,
    amountCents: row.amountCents,
    ...(row.processorTransactionId ? { transactionId: row.processorTransactionId } : {}),
    ...(row.brand ? { brand: row.brand } : {}),
    ...(row.last4 ? { last4: row.last4 } : {}),
    ...(row.message ? { message: row.message } : row.status === "pending" ? { message: PAYMENT_MESSAGES.unknown } : {}),
    repeated,
  };
}

/** What a payment log line says: never more than brand and last four of the card. */
function logFields(outcome: PaymentOutcome, row: PaymentRow) {
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

function refuseTransaction(db: DbOrTx, what: string): void {
  if (db instanceof PgTransaction) {
    throw new Error(
      `${what} runs outside transactions: the record of a charge must outlive a rollback, and no lock may be held during the processor call`,
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
