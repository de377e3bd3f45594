import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "@db/client.server";
import { payments } from "@db/schema";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import type { PaymentGateway } from "./gateway";
import { refundPayment, SETTLING_REFERENCE, voidPayment } from "./payments.server";

/**
 * Orphaned charges (issue 28): an approved payment whose booking, invoice or order was never
 * stored (the process died between the approval and the store, or the database went away and
 * the pipeline could not void it). Found here — at start, every RECONCILE_EVERY_MS after, and
 * by the re-send of the same render — and settled through the gateway: voided, or refunded when
 * the processor will not void it. The caller tells staff about each one, whatever the outcome.
 *
 * Taking the charge first (its reference set to SETTLING_REFERENCE, only while no record links
 * it) closes the race with a store that arrives late: `linkPayment` then refuses, the store rolls
 * back, and nothing stands on a voided charge.
 */
export type SettledCharge = {
  paymentId: number;
  purpose: string;
  amountCents: number;
  brand: string | null;
  last4: string | null;
  transactionId: string | null;
  createdAt: Date;
  /** 'voided' / 'refunded': the money went back; 'approved': the processor refused both (staff must act). */
  status: "voided" | "refunded" | "approved";
};

export const RECONCILE_EVERY_MS = 15_000;

/** How long an approval may stand unlinked before it counts as orphaned: a store takes milliseconds. */
export const orphanGraceMs = () => env().PAYMENT_TIMEOUT_MS + 10_000;

/** Settles every approved, unlinked charge answered more than `olderThanMs` ago. */
export async function settleOrphanCharges(
  db: Database,
  { olderThanMs = orphanGraceMs(), gateway }: { olderThanMs?: number; gateway?: PaymentGateway } = {},
): Promise<SettledCharge[]> {
  const orphans = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, "approved"),
        isNull(payments.referenceId),
        lt(payments.updatedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .orderBy(payments.id)
    .limit(100);
  const settled: SettledCharge[] = [];
  for (const { id } of orphans) {
    const one = await settleOrphanCharge(db, id, { gateway });
    if (one) settled.push(one);
  }
  return settled;
}

/** Takes one orphaned charge (unless a record linked it or another instance took it) and gives the money back. */
export async function settleOrphanCharge(
  db: Database,
  paymentId: number,
  { gateway }: { gateway?: PaymentGateway } = {},
): Promise<SettledCharge | undefined> {
  const [taken] = await db
    .update(payments)
    .set({ referenceTable: SETTLING_REFERENCE })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "approved"), isNull(payments.referenceTable)))
    .returning();
  if (!taken) return undefined;
  let outcome = await voidPayment(db, paymentId, { gateway });
  if (outcome.status === "approved") outcome = await refundPayment(db, paymentId, { gateway });
  const status = outcome.status === "voided" || outcome.status === "refunded" ? outcome.status : "approved";
  const fields = { paymentId, purpose: taken.purpose, amountCents: taken.amountCents, status };
  if (status === "approved") log.error(fields, "orphaned charge could not be voided or refunded: staff must refund it");
  else log.warn(fields, `orphaned charge ${status}: its submission was never stored`);
  return {
    paymentId,
    purpose: taken.purpose,
    amountCents: taken.amountCents,
    brand: taken.brand,
    last4: taken.last4,
    transactionId: taken.processorTransactionId,
    createdAt: taken.createdAt,
    status,
  };
}
