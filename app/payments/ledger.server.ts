import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { payments, type LedgerIntent } from "@db/schema";
import { cardLabel, moneySentence, stillOnItsWay, type MoneyWords } from "./words";
import { tableOf, type LedgerRecord } from "./record";

/**
 * What the ledger says of one business record (a booking, an order, an invoice payment): the
 * questions the rest of the site asks payments/ instead of reading its table (issue 36 item 1).
 * Every amount is a sum of rows; nothing is copied from a price.
 */
export type LedgerLine = MoneyWords & {
  id: number;
  intent: LedgerIntent | null;
  at: Date;
};

export type MoneyOf = {
  /** Taken by charges that succeeded. */
  chargedCents: number;
  /** Given back by voids and refunds that succeeded. */
  backCents: number;
  /** chargedCents − backCents: what the record has actually been paid. */
  netCents: number;
  /** Charges sent or about to be, not confirmed (never call them paid). */
  pendingInCents: number;
  /** Voids and refunds requested, not confirmed (waiting for a settlement, or for an answer). */
  pendingOutCents: number;
  /** A charge of this record whose outcome or change is still open: a change of the record waits for it. */
  openCharge: boolean;
  /** The card that paid (the first charge that succeeded), as words. */
  card: string;
  brand: string | null;
  last4: string | null;
  lines: LedgerLine[];
};

/** The record whose money is read. */
export type Subject = LedgerRecord;

/** Every row serving the record, oldest first: its charges and what acted on them. */
export async function moneyOf(db: DbOrTx, subject: Subject): Promise<MoneyOf> {
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.referenceTable, tableOf(subject)),
        eq(payments.referenceId, subject.id),
        or(eq(payments.state, "succeeded"), inArray(payments.state, ["requested", "unknown"])),
      ),
    )
    .orderBy(asc(payments.id));
  const paid =
    rows.find((r) => r.kind === "charge" && r.state === "succeeded") ?? rows.find((r) => r.kind === "charge");
  const brand = paid?.brand ?? null;
  const last4 = paid?.last4 ?? null;
  const sum = (pick: (r: (typeof rows)[number]) => boolean) =>
    rows.filter(pick).reduce((total, r) => total + r.amountCents, 0);
  const done = (r: (typeof rows)[number]) => r.state === "succeeded";
  const chargedCents = sum((r) => r.kind === "charge" && done(r));
  const backCents = sum((r) => r.kind !== "charge" && done(r));
  return {
    chargedCents,
    backCents,
    netCents: chargedCents - backCents,
    pendingInCents: sum((r) => r.kind === "charge" && !done(r)),
    pendingOutCents: sum((r) => r.kind !== "charge" && !done(r)),
    openCharge: rows.some((r) => r.kind === "charge" && (!done(r) || r.resolvedAt === null)),
    card: cardLabel(brand, last4),
    brand,
    last4,
    lines: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      state: done(r) ? "succeeded" : "pending",
      amountCents: r.amountCents,
      card: cardLabel(r.brand ?? brand, r.last4 ?? last4),
      intent: r.intent,
      at: r.createdAt,
    })),
  };
}

/**
 * The lines one change wrote (its rows by id), as one sentence: what a banner, a history line or a
 * mail says; then what earlier changes still have on its way back, so the figures add up.
 */
export async function changeSentence(db: DbOrTx, subject: Subject, ids: readonly number[]): Promise<string> {
  if (ids.length === 0) return "";
  const money = await moneyOf(db, subject);
  const earlierOut = money.lines
    .filter((line) => !ids.includes(line.id) && line.kind !== "charge" && line.state === "pending")
    .reduce((total, line) => total + line.amountCents, 0);
  return [moneySentence(money.lines.filter((line) => ids.includes(line.id))), stillOnItsWay(earlierOut, money.card)]
    .filter(Boolean)
    .join(" ");
}

/** The ids of the rows a change wrote (by its exact change key), for its sentence after a restart. */
export async function rowsOfChange(db: DbOrTx, changeKey: string): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.changeKey, changeKey), sql`${payments.state} <> 'declined'`))
    .orderBy(asc(payments.id));
  return rows.map((r) => r.id);
}

/** The card a charge was made with, as the processor gave it back (brand and last four only). */
export async function cardOfCharge(
  db: DbOrTx,
  chargeId: number,
): Promise<{ brand: string | null; last4: string | null }> {
  const [row] = await db
    .select({ brand: payments.brand, last4: payments.last4 })
    .from(payments)
    .where(eq(payments.id, chargeId));
  return { brand: row?.brand ?? null, last4: row?.last4 ?? null };
}
