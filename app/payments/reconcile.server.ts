import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, DbOrTx, Tx } from "@db/client.server";
import { payments } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { LookupResult, PaymentGateway } from "./gateway";
import { ledgerReference } from "./gateway";
import { paymentGateway } from "./gateway.server";
import {
  completeGiveBack,
  MAX_GIVE_BACK_ATTEMPTS,
  performGiveBack,
  requestGiveBack,
  resolveRows,
} from "./give-back.server";
import type { ExpectedPayment } from "./audit.server";
import { recordOf, tableOf, type RecordKind } from "./record";
import { claimRow, refuseTransaction, releaseLease, type Lease, type LedgerRow } from "./payments.server";

/**
 * THE reconciler (issue 36 item 4): every ledger row that is not final, resolved by asking the
 * processor, at start and every minute, on one instance at a time (the caller holds the lease:
 * server/maintenance.ts). Its rules, in the order it applies them to one row:
 *
 *   row                                   asks                          then
 *   charge requested (no answer: died)    lookup by transaction id, or  succeeded / declined (missing:
 *   charge unknown (timeout)              findByReference("L<id>")      never reached: declined)
 *   charge succeeded, nothing stands on   —                             undo: void (or refund), company
 *     it (its record never committed)                                   mailed once
 *   charge answered now whose record was  —                             the record confirmed (succeeded)
 *     stored pending (a pending booking,                                or released (declined), company
 *     order, invoice)                                                   mailed once
 *   void / refund requested (died before  the charge's state; a refund  completed, or sent now (a refund
 *     the call, or waiting for the          by reference                 waiting for its charge to settle
 *     charge to settle), or unknown                                     goes once it has)
 *   void / refund done, its change's      —                             the change's mails written
 *     mails never written                                               (whoever it serves), once
 *
 * Every write is conditional on the row's state, so a late request (the process that was only
 * slow) and the reconciler never both act; mails are written in the transaction that resolves.
 */
export type ReconcileEvent = {
  /** undone: money taken for nothing was given back; confirmed/released: a pending record settled;
   *  gave-back: a give-back completed or its mails written; stuck: the processor refused to give money back;
   *  not-taken: a charge interrupted before its answer (the process died) that the processor never took. */
  kind: "undone" | "confirmed" | "released" | "gave-back" | "stuck" | "not-taken";
  row: LedgerRow;
  /** For undone: what the give-back did. */
  outcome?: "voided" | "refunded" | "pending" | "refused";
};

/**
 * What a capability declares, beside its own code, for the records its ledger rows serve: how the
 * reconciler finishes or undoes them, and what the audit expects of them. The server hands the
 * reconciler and the audit one of these per kind of record (`RecordLedgers`): a kind without its
 * declaration does not typecheck.
 */
export type RecordLedger = {
  /** A charge stored as pending (unknown answer) turned out to have succeeded: confirm the record. True: the visitor was told. */
  confirmed(tx: Tx, id: number, charge: LedgerRow): Promise<boolean>;
  /** A charge stored as pending turned out not taken: release the record. True: the visitor was told. */
  released(tx: Tx, id: number, charge: LedgerRow): Promise<boolean>;
  /**
   * A give-back finished by the reconciler: `later` when the change's mails were written before it
   * went through. True when the capability wrote the change's mails (the company's copy among them):
   * no second mail is sent then. Without it the reconciler only tells the company.
   */
  gaveBack?(tx: Tx, row: LedgerRow, info: { later: boolean }): Promise<boolean>;
  /** What each record should have been paid, and what else is wrong with it (the audit's side). */
  expected(db: DbOrTx): Promise<ExpectedPayment[]>;
};

export type RecordLedgers = { readonly [K in RecordKind]: RecordLedger };

/** What the reconciler calls when it settles a row: the record's own ledger, and the company's notice. */
export type ReconcileHooks = {
  ledgers?: RecordLedgers;
  /** Tell the company, in the same transaction (once). */
  notify?(tx: Tx, event: ReconcileEvent): Promise<void>;
};

/** The record a row serves and its capability's declaration (none for a row that serves nothing). */
function ledgerOf(hooks: ReconcileHooks, row: LedgerRow) {
  const record = recordOf({ table: row.referenceTable, id: row.referenceId });
  const ledger = record ? hooks.ledgers?.[record.kind] : undefined;
  return record && ledger ? { record, ledger } : null;
}

/**
 * Locks the record a row serves, before the reconciler writes the row: a change of the record (a
 * move, a cancel) locks the record and then its rows, so both take them in one order (in the other
 * order a move finishing while the reconciler finished its refund deadlocked).
 */
async function lockRecordOf(tx: Tx, row: Pick<LedgerRow, "referenceTable" | "referenceId">): Promise<void> {
  const record = recordOf({ table: row.referenceTable, id: row.referenceId });
  if (record)
    await tx.execute(sql`select id from ${sql.identifier(tableOf(record))} where id = ${record.id} for update`);
}

export const RECONCILE_EVERY_MS = 60_000;

/** How long a row may stay open before it counts as abandoned: a request answers within the processor's timeout. */
export const reconcileGraceMs = () => env().PAYMENT_TIMEOUT_MS + 10_000;

export type ReconcileOptions = { gateway?: PaymentGateway; hooks?: ReconcileHooks; graceMs?: number; limit?: number };

/** One round over every open row older than the grace. */
export async function reconcile(db: Database, options: ReconcileOptions = {}): Promise<ReconcileEvent[]> {
  refuseTransaction(db, "reconcile");
  const graceMs = options.graceMs ?? reconcileGraceMs();
  const gateway = options.gateway ?? paymentGateway(db);
  options = { ...options, gateway };
  const open = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        // Only the processor asked can say what became of its rows.
        eq(payments.processor, gateway.name),
        or(
          inArray(payments.state, ["requested", "unknown"]),
          and(eq(payments.state, "succeeded"), isNull(payments.resolvedAt)),
        ),
        lt(
          sql`coalesce(${payments.updatedAt}, ${payments.createdAt})`,
          sql`now() - make_interval(secs => ${graceMs / 1000})`,
        ),
        // A row whose sender still holds it is that sender's: never sent, decided or taken over now.
        or(isNull(payments.leaseUntil), sql`${payments.leaseUntil} < now()`),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(options.limit ?? 200);
  const events: ReconcileEvent[] = [];
  events.push(...(await settleLateAnswers(db, options)));
  for (const { id } of open) {
    try {
      events.push(...(await reconcileRow(db, id, options)));
    } catch (error) {
      log.error({ err: error, paymentId: id }, "ledger row could not be reconciled; trying again next round");
    }
  }
  return events;
}

/** Applies the rules to one row (also called by a re-send of a render whose charge went through unstored). */
export async function reconcileRow(
  db: Database,
  id: number,
  options: ReconcileOptions = {},
): Promise<ReconcileEvent[]> {
  const gateway = options.gateway ?? paymentGateway(db);
  const hooks = options.hooks ?? {};
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  if (!row) return [];
  if (row.kind === "charge") return reconcileCharge(db, row, gateway, hooks);
  return reconcileGiveBack(db, row, gateway, hooks);
}

/** Where a lost answer is looked for: a little before the row was made (clocks differ), up to now. */
const searchFrom = (row: LedgerRow) => new Date(row.createdAt.getTime() - 10 * 60_000);

async function reconcileCharge(db: Database, row: LedgerRow, gateway: PaymentGateway, hooks: ReconcileHooks) {
  const events: ReconcileEvent[] = [];
  let current = row;
  if (row.state === "requested" || row.state === "unknown") {
    // The reconciler holds the row while it asks and decides: a sender still answering is late.
    const claimed = await claimRow(db, row.id, { states: ["requested", "unknown"] });
    if (!claimed) return events;
    const found = claimed.row.processorTransactionId
      ? await gateway.lookup(claimed.row.processorTransactionId)
      : await gateway.findByReference(ledgerReference(row.id), searchFrom(row));
    // Not known yet, or held for review: pending until the processor decides.
    if (found.status === "unknown" || (found.status === "found" && found.transaction.status === "review")) {
      await releaseLease(db, claimed.lease);
      return events;
    }
    const answered = await answerCharge(db, claimed.row, found, hooks, events, claimed.lease);
    if (!answered) return events;
    current = answered;
  }
  if (current.state === "succeeded" && current.resolvedAt === null) {
    const undone = await undoCharge(db, current.id, { gateway, hooks });
    if (undone) events.push(undone);
  }
  return events;
}

/** Completes a charge from the processor's record; a record stored pending is confirmed or released with it. */
async function answerCharge(
  db: Database,
  row: LedgerRow,
  found: Exclude<LookupResult, { status: "unknown" }>,
  hooks: ReconcileHooks,
  events: ReconcileEvent[],
  lease: Lease,
): Promise<LedgerRow | undefined> {
  // Only a charge the processor approved took money; voided, expired, declined or failed did not.
  const took =
    found.status === "found" && found.transaction.type === "charge" && found.transaction.status === "approved";
  return db.transaction(async (tx) => {
    await lockRecordOf(tx, row);
    const [updated] = await tx
      .update(payments)
      .set(
        took && found.status === "found"
          ? {
              state: "succeeded",
              processorTransactionId: found.transaction.transactionId,
              brand: row.brand ?? found.transaction.brand ?? null,
              last4: row.last4 ?? found.transaction.last4 ?? null,
              message: null,
              leaseUntil: null,
              updatedAt: sql`now()`,
            }
          : {
              state: "declined",
              message:
                found.status === "missing"
                  ? "The request never reached the card processor."
                  : `Not taken: the card processor says ${found.transaction.processorStatus}.`,
              leaseUntil: null,
              updatedAt: sql`now()`,
            },
      )
      .where(
        and(
          eq(payments.id, row.id),
          eq(payments.leaseToken, lease.token),
          inArray(payments.state, ["requested", "unknown"]),
        ),
      )
      .returning();
    if (!updated) return undefined;
    log.warn({ paymentId: row.id, state: updated.state }, "open charge answered by the processor's record");
    // A record stored while the answer was unknown (a pending booking, order, invoice) settles now.
    if (updated.resolvedAt !== null) {
      const event: ReconcileEvent = { kind: took ? "confirmed" : "released", row: updated };
      const owner = ledgerOf(hooks, updated);
      const told = owner
        ? await (took ? owner.ledger.confirmed : owner.ledger.released)(tx, owner.record.id, updated)
        : false;
      if (told)
        await tx
          .update(payments)
          .set({ toldAt: sql`now()` })
          .where(eq(payments.id, updated.id));
      await hooks.notify?.(tx, event);
      events.push(event);
    } else if (!took) {
      // Interrupted before its answer and never taken: nothing moved, and the company is told so
      // once (the visitor saw no answer, and may call). Money taken is undone next (its own mail).
      const event: ReconcileEvent = { kind: "not-taken", row: updated };
      await tx
        .update(payments)
        .set({ resolvedAt: sql`now()` })
        .where(eq(payments.id, updated.id));
      await hooks.notify?.(tx, event);
      events.push(event);
    }
    return updated;
  });
}

/**
 * Money taken with nothing standing on it (the record never committed, a move that failed): the
 * charge is resolved as undone and a void requested in one transaction — so a store arriving late
 * is refused (`linkPayment`) and nothing stands on money given back — then the void (or refund,
 * once settled) is sent and the company told once what moved.
 */
export async function undoCharge(
  db: Database,
  chargeId: number,
  { gateway = paymentGateway(db), hooks = {} }: { gateway?: PaymentGateway; hooks?: ReconcileHooks } = {},
): Promise<ReconcileEvent | undefined> {
  const key = `undo:${chargeId}`;
  const taken = await db.transaction(async (tx) => {
    const [charge] = await tx
      .update(payments)
      .set({ resolvedAt: sql`now()` })
      .where(
        and(
          eq(payments.id, chargeId),
          eq(payments.kind, "charge"),
          eq(payments.state, "succeeded"),
          isNull(payments.resolvedAt),
        ),
      )
      .returning();
    if (!charge) return undefined;
    // The give-back carries the charge's reference (the booking a failed move was for), or none.
    const reference = recordOf({ table: charge.referenceTable, id: charge.referenceId });
    await requestGiveBack(tx, { reference, chargeId: charge.id, cents: "all", intent: "undo", key: `${key}:` });
    return charge;
  });
  if (!taken) return undefined;
  const [giveBack] = await db
    .select()
    .from(payments)
    .where(eq(payments.changeKey, `${key}:`));
  if (giveBack) await performGiveBack(db, giveBack.id, { gateway });
  return finishUndo(db, chargeId, hooks);
}

/** The undo's mail, with what its give-back did: written once, in the transaction resolving the give-back. */
async function finishUndo(db: Database, chargeId: number, hooks: ReconcileHooks): Promise<ReconcileEvent | undefined> {
  return db.transaction(async (tx) => {
    const resolved = await resolveRows(tx, `undo:${chargeId}:`);
    if (resolved.length === 0) return undefined;
    const [charge] = await tx.select().from(payments).where(eq(payments.id, chargeId));
    const back = resolved[0]!;
    const event: ReconcileEvent = {
      kind: "undone",
      row: charge!,
      outcome:
        back.state === "succeeded"
          ? back.kind === "void"
            ? "voided"
            : "refunded"
          : back.state === "declined"
            ? "refused"
            : "pending",
    };
    await hooks.notify?.(tx, event);
    const fields = {
      paymentId: chargeId,
      purpose: charge!.purpose,
      amountCents: charge!.amountCents,
      outcome: event.outcome,
    };
    if (event.outcome === "refused")
      log.error(fields, "charge with nothing standing on it could not be given back: staff must refund it");
    else log.warn(fields, "charge with nothing standing on it given back");
    return event;
  });
}

async function reconcileGiveBack(db: Database, row: LedgerRow, gateway: PaymentGateway, hooks: ReconcileHooks) {
  const events: ReconcileEvent[] = [];
  let current = row;
  if (row.state === "requested" || row.state === "unknown") {
    const claimed = await claimRow(db, row.id, { states: ["requested", "unknown"] });
    if (!claimed) return events;
    const wasResolved = row.resolvedAt !== null;
    // Sent before by a holder that is gone: did that send arrive? A refund is found by its
    // reference; a void shows on its charge (performGiveBack reads it before sending anything).
    const sentBefore = claimed.row.sends > 0 || claimed.row.state === "unknown";
    const found =
      sentBefore && claimed.row.kind === "refund"
        ? await gateway.findByReference(ledgerReference(row.id), searchFrom(row))
        : undefined;
    if (found?.status === "unknown" || (found?.status === "found" && found.transaction.status === "review")) {
      await releaseLease(db, claimed.lease);
      return events;
    }
    if (found?.status === "found") {
      await completeGiveBack(
        db,
        claimed.row,
        "refund",
        found.transaction.status === "approved"
          ? { status: "approved", transactionId: found.transaction.transactionId }
          : { status: "declined", message: `Not done: the card processor says ${found.transaction.processorStatus}.` },
        claimed.lease,
      );
    } else {
      if (claimed.row.state === "unknown")
        await db
          .update(payments)
          .set({ state: "requested" })
          .where(and(eq(payments.id, row.id), eq(payments.leaseToken, claimed.lease.token)));
      await performGiveBack(db, row.id, { gateway, lease: claimed.lease });
    }
    const [after] = await db.select().from(payments).where(eq(payments.id, row.id));
    if (!after) return events;
    current = after;
    if (wasResolved && after.state === "succeeded") {
      // Its change's mails said it was on its way: now it has gone.
      await db.transaction(async (tx) => {
        await lockRecordOf(tx, after);
        const event: ReconcileEvent = { kind: "gave-back", row: after };
        const mailed =
          after.intent !== "undo" && (await ledgerOf(hooks, after)?.ledger.gaveBack?.(tx, after, { later: true }));
        if (!mailed) await hooks.notify?.(tx, event);
        events.push(event);
      });
    }
    if (after.state === "declined" && stuck(after)) {
      await db.transaction(async (tx) => {
        const event: ReconcileEvent = { kind: "stuck", row: after };
        await hooks.notify?.(tx, event);
        events.push(event);
      });
    }
  }
  if (current.state !== "declined" && current.resolvedAt === null) {
    // The change's mails were never written (the process died after its commit).
    if (current.intent === "undo") {
      const parent = current.parentId;
      const undone = parent ? await finishUndo(db, parent, hooks) : undefined;
      if (undone) events.push(undone);
    } else {
      await db.transaction(async (tx) => {
        await lockRecordOf(tx, current);
        const [locked] = await tx.select().from(payments).where(eq(payments.id, current.id)).for("update");
        if (!locked || locked.resolvedAt !== null) return;
        const mailed = await ledgerOf(hooks, locked)?.ledger.gaveBack?.(tx, locked, { later: false });
        // A capability without a finish of its own: the row is resolved here.
        await tx
          .update(payments)
          .set({ resolvedAt: sql`now()` })
          .where(and(eq(payments.id, locked.id), isNull(payments.resolvedAt)));
        const event: ReconcileEvent = { kind: "gave-back", row: locked };
        if (!mailed) await hooks.notify?.(tx, event);
        events.push(event);
      });
    }
  }
  return events;
}

/** A give-back refused MAX_GIVE_BACK_ATTEMPTS times: no retry follows, staff must act. */
const stuck = (row: LedgerRow) => Number(/#(\d+)$/.exec(row.idempotencyKey)?.[1] ?? 1) >= MAX_GIVE_BACK_ATTEMPTS;

/**
 * Answers that came after their row was decided (`recordLate`), acted on once: a charge decided
 * "not taken" that the processor did take gets a row of its own and is given back (voided, or
 * refunded once settled); a late answer that agrees with the decision, or moved nothing, is
 * closed; a give-back that went through after its row was refused and requested again is told
 * to the company (the card got it twice), and the audit keeps reporting it until staff act.
 */
export async function settleLateAnswers(db: Database, options: ReconcileOptions = {}): Promise<ReconcileEvent[]> {
  const gateway = options.gateway ?? paymentGateway(db);
  const hooks = options.hooks ?? {};
  const late = await db
    .select()
    .from(payments)
    .where(
      and(eq(payments.processor, gateway.name), sql`${payments.lateAt} is not null`, isNull(payments.lateSettledAt)),
    )
    .orderBy(asc(payments.id))
    .limit(options.limit ?? 200);
  const events: ReconcileEvent[] = [];
  for (const row of late) {
    // Still open: the reconciler's own look-up decides it first, with the late answer in view.
    if (row.state === "requested" || row.state === "unknown") continue;
    try {
      const undo = await settleLate(db, row, hooks, events);
      if (undo !== undefined) {
        const undone = await undoCharge(db, undo, { gateway, hooks });
        if (undone) events.push(undone);
      }
    } catch (error) {
      log.error({ err: error, paymentId: row.id }, "late answer could not be settled; trying again next round");
    }
  }
  return events;
}

/** Closes one late answer; returns the id of a charge row to give back, when money was taken for nothing. */
async function settleLate(
  db: Database,
  row: LedgerRow,
  hooks: ReconcileHooks,
  events: ReconcileEvent[],
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [closed] = await tx
      .update(payments)
      .set({ lateSettledAt: sql`now()` })
      .where(and(eq(payments.id, row.id), isNull(payments.lateSettledAt)))
      .returning();
    if (!closed) return undefined;
    const tookLate =
      closed.lateStatus === "approved" &&
      closed.lateTransactionId !== null &&
      closed.lateTransactionId !== closed.processorTransactionId;
    if (!tookLate || closed.state === "succeeded") return undefined;
    if (closed.kind !== "charge") {
      const event: ReconcileEvent = { kind: "stuck", row: closed };
      await hooks.notify?.(tx, event);
      events.push(event);
      log.error({ giveBack: closed.id }, "a give-back went through after its row was refused: money went back twice");
      return undefined;
    }
    // The decision stands (nothing was charged, as the visitor was told); the money the processor
    // took anyway is a charge of its own, with nothing standing on it, and goes back.
    const [taken] = await tx
      .insert(payments)
      .values({
        kind: "charge",
        state: "succeeded",
        amountCents: closed.amountCents,
        purpose: closed.purpose,
        intent: "undo",
        idempotencyKey: `late:${closed.id}`,
        changeKey: `late:${closed.id}`,
        processor: closed.processor,
        processorTransactionId: closed.lateTransactionId,
        brand: closed.brand,
        last4: closed.last4,
        message: `Taken after ledger row ${closed.id} was decided not taken.`,
        updatedAt: sql`now()`,
        toldAt: sql`now()`,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    return taken?.id;
  });
}
