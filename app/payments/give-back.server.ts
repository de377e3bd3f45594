import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { payments, type LedgerIntent } from "@db/schema";
import { log } from "~/lib/log.server";
import type { AdjustResult, LookupResult, PaymentGateway, ProcessorTransaction } from "./gateway";
import { ledgerReference } from "./gateway";
import { tableOf, type LedgerRecord } from "./record";
import { paymentGateway } from "./gateway.server";
import { assertCents } from "./money";
import {
  claimRow,
  noteSend,
  recordLate,
  refuseTransaction,
  releaseLease,
  type Lease,
  type LedgerRow,
} from "./payments.server";
import { scrubCardNumbers } from "./redact";

/**
 * Money going back (issue 36): a cancel, a cheaper move, the reconciler's undo of a charge nothing
 * stood on. Two steps, as every processor call of the ledger:
 *
 *   request  inside the caller's transaction, which holds the lock of what was paid for (the
 *            booking's row) and commits the business change itself (the booking cancelled or
 *            moved): one row per charge given back, newest charge first, each for what remains
 *            of it (its amount less what was given back or is on its way back). The rows are
 *            resolved when the change's notices are written (`resolveRows`), after the call.
 *   perform  no transaction open: the processor is asked how the charge stands (a look-up moves
 *            no money), the row becomes a void (the whole charge, not settled yet: no money ever
 *            leaves the card) or a refund (settled), and only then is the call made and answered.
 *            A part of a charge that has not settled cannot be given back yet: the row waits,
 *            'requested', and the reconciler sends it once the charge has settled.
 *
 * A refused void or refund is declined (nothing moved) and followed, in the same transaction, by
 * a new request for the same money, so what is owed stays on the ledger until it has gone back;
 * after MAX_ATTEMPTS refusals the company is told to act (./reconcile.server.ts).
 */
export type GiveBackRequest = {
  /** The business record the money went to (null: an undo of a charge nothing stood on). */
  reference: LedgerRecord | null;
  /** How much, or "all": whatever remains of the charges. */
  cents: number | "all";
  /** Only this charge (the reconciler's undo); otherwise every charge of the reference, newest first. */
  chargeId?: number;
  intent: LedgerIntent;
  /** Names this change (a move's render, a cancel): each row's key is `${key}:${charge id}`. */
  key: string;
};

export const MAX_GIVE_BACK_ATTEMPTS = 5;

export class NothingToGiveBackError extends Error {
  constructor(readonly cents: number) {
    super(`less than ${cents} cents remains to be given back`);
    this.name = "NothingToGiveBackError";
  }
}

/** The rows (ids) giving `cents` back, newest charge first, committed with the caller's transaction. */
export async function requestGiveBack(tx: Tx, req: GiveBackRequest): Promise<number[]> {
  if (req.cents !== "all") assertCents(req.cents);
  if (req.cents === 0) return [];
  const charges = await tx
    .select({
      id: payments.id,
      amount: payments.amountCents,
      purpose: payments.purpose,
      processor: payments.processor,
      brand: payments.brand,
      last4: payments.last4,
      // The outer row qualified by the table's name: Drizzle writes a one-table select's columns
      // bare, and a bare "id" inside this subquery would be g's own.
      back: sql<number>`(select coalesce(sum(g.amount_cents), 0)::int from payments g where g.parent_id = "payments"."id" and g.state <> 'declined')`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.kind, "charge"),
        eq(payments.state, "succeeded"),
        req.chargeId !== undefined
          ? eq(payments.id, req.chargeId)
          : and(
              eq(payments.referenceTable, req.reference ? tableOf(req.reference) : ""),
              eq(payments.referenceId, req.reference?.id ?? 0),
            ),
      ),
    )
    .orderBy(desc(payments.id));
  let left = req.cents === "all" ? charges.reduce((total, c) => total + c.amount - Number(c.back), 0) : req.cents;
  const ids: number[] = [];
  for (const charge of charges) {
    if (left === 0) break;
    const remains = charge.amount - Number(charge.back);
    const part = Math.min(left, remains);
    if (part <= 0) continue;
    const [row] = await tx
      .insert(payments)
      .values({
        kind: part === charge.amount ? "void" : "refund",
        state: "requested",
        amountCents: part,
        purpose: charge.purpose,
        intent: req.intent,
        parentId: charge.id,
        idempotencyKey: `${req.key}:${charge.id}`,
        changeKey: req.key,
        processor: charge.processor,
        brand: charge.brand,
        last4: charge.last4,
        referenceTable: req.reference ? tableOf(req.reference) : null,
        referenceId: req.reference?.id ?? null,
      })
      .returning({ id: payments.id });
    ids.push(row!.id);
    left -= part;
  }
  if (left > 0) throw new NothingToGiveBackError(left);
  return ids;
}

export type GiveBackResult = {
  id: number;
  kind: "void" | "refund";
  amountCents: number;
  /** waiting: a part of a charge not settled yet, or the processor could not be asked; sent later. */
  state: "succeeded" | "declined" | "unknown" | "waiting";
  message?: string;
};

/** Performs requested give-backs one after the other (no transaction open). */
export async function performGiveBacks(
  db: Database,
  ids: readonly number[],
  options: { gateway?: PaymentGateway; leaseMs?: number } = {},
): Promise<GiveBackResult[]> {
  const results: GiveBackResult[] = [];
  for (const id of ids) results.push(await performGiveBack(db, id, options));
  return results;
}

/**
 * Sends one requested give-back, as its one holder: claimed here (or handed the reconciler's
 * lease), so no two senders ever send the same row; a row held by another is left to it.
 */
export async function performGiveBack(
  db: Database,
  id: number,
  { gateway = paymentGateway(db), lease, leaseMs }: { gateway?: PaymentGateway; lease?: Lease; leaseMs?: number } = {},
): Promise<GiveBackResult> {
  refuseTransaction(db, "performGiveBack");
  const held = lease ?? (await claimRow(db, id, { states: ["requested"], leaseMs }))?.lease;
  const { row, charge } = await giveBackAndCharge(db, id);
  if (!held || row.state !== "requested") return asResult(row);
  if (charge.processor !== gateway.name)
    throw new Error(`payment ${charge.id} was made with ${charge.processor}, not ${gateway.name}`);

  // How the charge stands decides void or refund; a look-up moves no money.
  const found = await gateway.lookup(charge.processorTransactionId);
  if (found.status !== "found") return waitForLookup(db, row, charge, found, held);
  const kind = await chooseKind(db, row, charge, found.transaction, held);
  if (typeof kind !== "string") return kind;
  if (kind !== row.kind && !(await switchKind(db, held, kind))) return asResult(await rowOf(db, id));
  if (!(await noteSend(db, held))) return asResult(await rowOf(db, id));
  const answer = await askProcessor(gateway, row, charge, kind, found.transaction);
  return completeGiveBack(db, row, kind, answer, held);
}

async function rowOf(db: DbOrTx, id: number): Promise<LedgerRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error(`no ledger row ${id}`);
  return row;
}

/** A charge of the ledger with the processor's transaction id it acts on. */
type ProcessedCharge = LedgerRow & { processorTransactionId: string };

/** Reads the give-back row `id` and the charge it gives back; throws when either is not there. */
async function giveBackAndCharge(db: Database, id: number): Promise<{ row: LedgerRow; charge: ProcessedCharge }> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  if (!row || row.kind === "charge") throw new Error(`no give-back ${id}`);
  const [charge] = await db.select().from(payments).where(eq(payments.id, row.parentId!));
  if (!charge?.processorTransactionId) throw new Error(`give-back ${id} has no charge to act on`);
  return { row, charge: charge as ProcessedCharge };
}

/** Notes on the row why the charge could not be looked up and answers that the give-back waits. */
async function waitForLookup(
  db: Database,
  row: LedgerRow,
  charge: LedgerRow,
  found: Exclude<LookupResult, { status: "found" }>,
  lease: Lease,
): Promise<GiveBackResult> {
  await note(db, row.id, found.status === "missing" ? "the processor has no record of the charge" : found.message);
  await releaseLease(db, lease);
  log.warn(
    { giveBack: row.id, paymentId: charge.id, lookup: found.status },
    "give-back waits: the charge could not be looked up",
  );
  return { id: row.id, kind: row.kind as "void" | "refund", amountCents: row.amountCents, state: "waiting" };
}

/**
 * Void or refund, as the charge stands at the processor; or the row's result when nothing is to
 * be sent (the charge voided by another row, or a part of a charge not settled yet).
 */
async function chooseKind(
  db: Database,
  row: LedgerRow,
  charge: LedgerRow,
  transaction: ProcessorTransaction,
  lease: Lease,
): Promise<"void" | "refund" | GiveBackResult> {
  const id = row.id;
  const otherBack = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(and(eq(payments.parentId, charge.id), ne(payments.id, id), ne(payments.state, "declined")));
  const whole = row.amountCents === charge.amountCents && Number(otherBack[0]?.n ?? 0) === 0;
  if (transaction.status === "voided") {
    // Voided already. By this row's own call whose answer was lost, or by another row: then there is
    // nothing left of the charge to give back, and this row moved nothing.
    if (await voidedByAnother(db, id, charge.id)) return declineVoidedAlready(db, row, charge);
    return "void";
  }
  if (!transaction.settled) {
    if (!whole) {
      await note(db, id, WAITING_FOR_SETTLEMENT);
      await releaseLease(db, lease);
      return { id, kind: "refund", amountCents: row.amountCents, state: "waiting", message: WAITING_FOR_SETTLEMENT };
    }
    return "void";
  }
  return "refund";
}

/** Whether another row of the charge has voided it. */
async function voidedByAnother(db: Database, id: number, chargeId: number): Promise<boolean> {
  const [other] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.parentId, chargeId),
        ne(payments.id, id),
        eq(payments.kind, "void"),
        eq(payments.state, "succeeded"),
      ),
    );
  return Boolean(other);
}

/** Declines the row of a charge voided already by another: nothing is sent, nothing moved. */
async function declineVoidedAlready(db: Database, row: LedgerRow, charge: LedgerRow): Promise<GiveBackResult> {
  const id = row.id;
  await db
    .update(payments)
    .set({
      state: "declined",
      message: "The charge was voided already: nothing left to give back.",
      updatedAt: sql`now()`,
    })
    .where(and(eq(payments.id, id), inArray(payments.state, ["requested", "unknown"])));
  log.error({ giveBack: id, paymentId: charge.id }, "give-back of a charge voided already: nothing sent");
  return { id, kind: row.kind as "void" | "refund", amountCents: row.amountCents, state: "declined" };
}

/** Turns the requested row into a void or a refund; false when it is no longer requested or no longer held. */
async function switchKind(db: Database, lease: Lease, kind: "void" | "refund"): Promise<boolean> {
  const [switched] = await db
    .update(payments)
    .set({ kind })
    .where(and(eq(payments.id, lease.id), eq(payments.state, "requested"), eq(payments.leaseToken, lease.token)))
    .returning({ id: payments.id });
  return Boolean(switched);
}

/** Sends the void or refund to the processor (a void found done already is not sent again); a throw is unknown. */
async function askProcessor(
  gateway: PaymentGateway,
  row: LedgerRow,
  charge: ProcessedCharge,
  kind: "void" | "refund",
  transaction: ProcessorTransaction,
): Promise<AdjustResult> {
  const id = row.id;
  if (kind === "void" && transaction.status === "voided") {
    // Voided already: this row's own call, whose answer was lost (the reconciler's case).
    return { status: "approved", transactionId: charge.processorTransactionId };
  }
  try {
    return kind === "void"
      ? await gateway.void(charge.processorTransactionId, ledgerReference(id))
      : await gateway.refund(charge.processorTransactionId, row.amountCents, charge.last4 ?? "", ledgerReference(id));
  } catch (error) {
    log.error({ giveBack: id, error: (error as Error)?.name }, "card gateway threw on a give-back");
    return { status: "unknown", message: "The card processor did not answer." };
  }
}

export const WAITING_FOR_SETTLEMENT = "waiting for the charge to settle at the processor";

/**
 * Records a give-back's answer under its holder's lease; a refusal is followed by a new request
 * for the same money (same transaction). A duplicate refusal means an earlier send of this row
 * arrived: the row stays open (unknown) for the reconciler to find that one. An answer whose
 * holder lost the row is recorded as late, never over what was decided.
 */
export async function completeGiveBack(
  db: Database,
  row: LedgerRow,
  kind: "void" | "refund",
  answer: AdjustResult,
  lease: Lease,
): Promise<GiveBackResult> {
  const duplicate = answer.status === "declined" && answer.duplicate === true;
  const state =
    answer.status === "approved" ? "succeeded" : answer.status === "declined" && !duplicate ? "declined" : "unknown";
  const message = answer.status === "approved" ? null : scrubCardNumbers(answer.message);
  const done = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(payments)
      .set({
        kind,
        state,
        message,
        leaseUntil: null,
        updatedAt: sql`now()`,
        ...(answer.status === "approved" ? { processorTransactionId: answer.transactionId } : {}),
      })
      .where(
        and(
          eq(payments.id, row.id),
          eq(payments.leaseToken, lease.token),
          inArray(payments.state, ["requested", "unknown"]),
        ),
      )
      .returning({ id: payments.id });
    if (updated && state === "declined") await retryGiveBack(tx, row);
    return Boolean(updated);
  });
  if (!done) {
    await recordLate(db, row.id, {
      status: answer.status,
      transactionId: answer.status === "approved" ? answer.transactionId : null,
    });
    return asResult(await rowOf(db, row.id));
  }
  const fields = { giveBack: row.id, paymentId: row.parentId, kind, cents: row.amountCents, state };
  if (state === "succeeded") log.info(fields, `card payment ${kind === "void" ? "voided" : "refunded"}`);
  else log.warn({ ...fields, message }, `card payment could not be ${kind === "void" ? "voided" : "refunded"}`);
  return { id: row.id, kind, amountCents: row.amountCents, state, ...(message ? { message } : {}) };
}

/** After a refusal: the same money requested again (attempt n+1), until MAX_GIVE_BACK_ATTEMPTS. */
async function retryGiveBack(tx: Tx, row: LedgerRow): Promise<void> {
  const base = row.idempotencyKey.replace(/#\d+$/, "");
  const attempt = Number(/#(\d+)$/.exec(row.idempotencyKey)?.[1] ?? 1) + 1;
  if (attempt > MAX_GIVE_BACK_ATTEMPTS) return;
  await tx.insert(payments).values({
    kind: row.kind,
    state: "requested",
    amountCents: row.amountCents,
    purpose: row.purpose,
    intent: row.intent,
    parentId: row.parentId,
    idempotencyKey: `${base}#${attempt}`,
    changeKey: row.changeKey,
    processor: row.processor,
    brand: row.brand,
    last4: row.last4,
    referenceTable: row.referenceTable,
    referenceId: row.referenceId,
    resolvedAt: row.resolvedAt,
  });
}

async function note(db: DbOrTx, id: number, message: string): Promise<void> {
  await db
    .update(payments)
    .set({ message, updatedAt: sql`now()` })
    .where(and(eq(payments.id, id), eq(payments.state, "requested")));
}

function asResult(row: LedgerRow): GiveBackResult {
  return {
    id: row.id,
    kind: row.kind as "void" | "refund",
    amountCents: row.amountCents,
    state: row.state === "requested" ? "waiting" : row.state,
    ...(row.message ? { message: row.message } : {}),
  };
}

/**
 * Rows of a business record whose outcome is still open: a request not answered, an unknown
 * answer, or a charge taken whose change has not committed. A change of the record (a move, a
 * cancel) made under its lock refuses while there is one.
 */
export async function openRowsOf(db: DbOrTx, reference: LedgerRecord): Promise<LedgerRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.referenceTable, tableOf(reference)),
        eq(payments.referenceId, reference.id),
        or(
          inArray(payments.state, ["requested", "unknown"]),
          and(eq(payments.state, "succeeded"), sql`${payments.resolvedAt} is null`),
        ),
      ),
    );
}

/**
 * The rows of one change (by its exact change key) not resolved yet, marked resolved in the
 * caller's transaction, which writes the change's notices: returns them, so the caller writes its
 * notices only when this call is the one that resolved them (once, whoever finishes: the request
 * itself or the reconciler after a crash).
 */
export async function resolveRows(tx: Tx, changeKey: string): Promise<LedgerRow[]> {
  return tx
    .update(payments)
    .set({ resolvedAt: sql`now()` })
    .where(and(eq(payments.changeKey, changeKey), ne(payments.kind, "charge"), sql`${payments.resolvedAt} is null`))
    .returning();
}
