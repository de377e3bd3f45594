import { and, asc, gt, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@db/client.server";
import { payments } from "@db/schema";
import type { LookupResult, PaymentGateway, ProcessorTransaction } from "./gateway";
import { ledgerReference } from "./gateway";
import { formatUsd } from "./money";
import type { LedgerRow } from "./payments.server";
import type { Subject } from "./ledger.server";
import { tableOf } from "./record";

/**
 * The payments audit (issue 36 item 6): every ledger row against the processor's own record, and
 * every business record against its ledger. `npm run payments:audit` and the daily job print or
 * mail what it finds; nothing found is the proof that every cent is accounted for.
 */
export type Mismatch = {
  where: string;
  problem: string;
  /** Since when it has been so (the daily mail gives each mismatch's age). */
  since?: Date;
};

/**
 * What a business record should have been paid, net, once every pending row has gone through;
 * and what else its capability checks of it (its stored amount against what its own facts
 * price, a released order's stock returned), as problems in words.
 */
export type ExpectedPayment = {
  subject: Subject;
  label: string;
  expectedCents: number;
  problems?: string[];
  since?: Date;
};

export type AuditOptions = {
  gateway: PaymentGateway;
  /** Rows created since (default: 45 days ago; the daily job looks back that far, the script everything). */
  since?: Date;
  /** Rows still open after this long are mismatches (the reconciler should have settled them). */
  openMs?: number;
};

const DAY = 24 * 60 * 60 * 1000;

/** Each ledger row against the processor's record of it; then the processor's transactions the ledger does not know. */
export async function auditProcessor(db: DbOrTx, options: AuditOptions): Promise<Mismatch[]> {
  const since = options.since ?? new Date(Date.now() - 45 * DAY);
  const openMs = options.openMs ?? 10 * 60 * 1000;
  const rows = await db
    .select()
    .from(payments)
    .where(and(gt(payments.createdAt, since), sql`${payments.processor} = ${options.gateway.name}`))
    .orderBy(asc(payments.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const found: Mismatch[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const where = `ledger row #${row.id} (${row.kind}, ${formatUsd(row.amountCents)})`;
    if (row.state === "requested" || row.state === "unknown") {
      if (Date.now() - (row.updatedAt ?? row.createdAt).getTime() > openMs)
        found.push({
          where,
          problem: `still ${row.state} after ${Math.round(openMs / 60000)} minutes: the reconciler has not settled it`,
          since: row.createdAt,
        });
      continue;
    }
    // A payment stored pending and resolved later: the visitor must have been told (a mail).
    if (
      row.kind === "charge" &&
      row.referenceId !== null &&
      row.resolvedAt !== null &&
      row.toldAt === null &&
      Date.now() - (row.updatedAt ?? row.createdAt).getTime() > openMs
    )
      found.push({
        where,
        problem: `resolved ${row.state === "succeeded" ? "as paid" : "as not taken"} after it was pending; the visitor was never told`,
        since: row.updatedAt ?? row.createdAt,
      });
    const record = await recordOf(options.gateway, row, byId);
    if (record.status === "unknown") {
      found.push({ where, problem: `the processor could not be asked: ${record.message}` });
      continue;
    }
    if (record.status === "found") seen.add(record.transaction.transactionId);
    const problem = compare(row, record, rows);
    if (problem) found.push({ where, problem, since: row.createdAt });
  }
  // What acted on each charge: at most one void, never a void and a refund, never more back than taken.
  for (const charge of rows.filter((r) => r.kind === "charge" && r.state === "succeeded")) {
    const back = rows.filter((r) => r.parentId === charge.id && r.state === "succeeded");
    const voids = back.filter((r) => r.kind === "void").length;
    const total = back.reduce((sum, r) => sum + r.amountCents, 0);
    const where = `ledger row #${charge.id} (charge, ${formatUsd(charge.amountCents)})`;
    if (voids > 1 || (voids === 1 && back.length > 1))
      found.push({
        where,
        problem: `given back ${back.length} times (${voids} voids): a charge is voided once or refunded`,
      });
    else if (total > charge.amountCents)
      found.push({ where, problem: `${formatUsd(total)} given back of ${formatUsd(charge.amountCents)}` });
  }
  if (options.gateway.transactionsSince) {
    // Accounted for by a row holding its id (two refunds under one reference are two transactions),
    // or by an open row's reference (the reconciler is about to look it up).
    const accounted = new Set(rows.map((r) => r.processorTransactionId).filter(Boolean));
    const open = new Set(
      rows.filter((r) => r.state === "requested" || r.state === "unknown").map((r) => ledgerReference(r.id)),
    );
    for (const t of await options.gateway.transactionsSince(since)) {
      // Declined or voided: no money moved.
      if (t.status === "declined" || t.status === "voided" || accounted.has(t.transactionId)) continue;
      if (t.reference && open.has(t.reference)) continue;
      if (t.type === "void") continue; // a void shows on its charge, which was compared above
      found.push({
        where: `processor transaction ${t.transactionId} (${t.type}, ${formatUsd(t.amountCents)}${t.reference ? `, ${t.reference}` : ""})`,
        problem: "the processor has it; no ledger row accounts for it",
      });
    }
  }
  return found;
}

async function recordOf(gateway: PaymentGateway, row: LedgerRow, byId: Map<number, LedgerRow>): Promise<LookupResult> {
  if (row.kind === "void") {
    const parent = byId.get(row.parentId ?? -1);
    return parent?.processorTransactionId ? gateway.lookup(parent.processorTransactionId) : { status: "missing" };
  }
  if (row.processorTransactionId) return gateway.lookup(row.processorTransactionId);
  return gateway.findByReference(ledgerReference(row.id), new Date(row.createdAt.getTime() - 10 * 60_000));
}

/** What is wrong with a final row against the processor's record, or null. */
function compare(
  row: LedgerRow,
  record: Exclude<LookupResult, { status: "unknown" }>,
  rows: LedgerRow[],
): string | null {
  const t: ProcessorTransaction | undefined = record.status === "found" ? record.transaction : undefined;
  if (row.state === "declined") {
    if (row.kind === "void") return null;
    // Taken after the row was decided, and accounted for by a row of its own (given back).
    if (t && rows.some((r) => r.id !== row.id && r.processorTransactionId === t.transactionId)) return null;
    // Declined, voided, expired: no money moved, as the ledger says.
    return t && (t.status === "approved" || t.status === "review") && t.type === row.kind
      ? `the ledger says declined; the processor ${t.status === "review" ? "holds for review" : "took"} ${formatUsd(t.amountCents)}`
      : null;
  }
  // succeeded
  if (!t) return "the ledger says it went through; the processor has no record of it";
  if (row.kind === "void")
    return t.status === "voided" ? null : `the ledger says voided; the processor's charge is ${t.status}`;
  if (t.amountCents !== row.amountCents)
    return `the ledger says ${formatUsd(row.amountCents)}; the processor ${formatUsd(t.amountCents)}`;
  if (
    row.kind === "charge" &&
    t.status === "voided" &&
    !rows.some((r) => r.parentId === row.id && r.kind === "void" && r.state === "succeeded")
  )
    return "the processor voided this charge; the ledger has no void of it";
  if (t.status === "declined")
    return `the ledger says it went through; the processor says ${t.processorStatus ?? "declined"}`;
  if (t.status === "review") return "the ledger says it went through; the processor holds it for review";
  return null;
}

/** Every business record against the ledger: net paid (pending rows counted as done) equals what it should be. */
export async function auditSubjects(db: DbOrTx, expected: readonly ExpectedPayment[]): Promise<Mismatch[]> {
  const sums = await db
    .select({
      table: payments.referenceTable,
      id: payments.referenceId,
      // A charge counts once what it paid for stands on it (resolved): a move's charge in flight, or
      // one the reconciler is about to give back, is not the record's money yet.
      net: sql<number>`coalesce(sum(case when ${payments.kind} = 'charge' then ${payments.amountCents} else -${payments.amountCents} end) filter (where ${payments.state} <> 'declined' and (${payments.kind} <> 'charge' or ${payments.resolvedAt} is not null)), 0)::int`,
    })
    .from(payments)
    .where(and(isNotNull(payments.referenceTable), isNotNull(payments.referenceId)))
    .groupBy(payments.referenceTable, payments.referenceId);
  const ledger = new Map(sums.map((s) => [`${s.table}:${s.id}`, Number(s.net)]));
  const found: Mismatch[] = [];
  const covered = new Set<string>();
  for (const e of expected) {
    const key = `${tableOf(e.subject)}:${e.subject.id}`;
    covered.add(key);
    for (const problem of e.problems ?? []) found.push({ where: e.label, problem, since: e.since });
    const net = ledger.get(key) ?? 0;
    if (net !== e.expectedCents)
      found.push({
        where: e.label,
        problem: `should have been paid ${formatUsd(e.expectedCents)} net; the ledger has ${net < 0 ? "-" : ""}${formatUsd(Math.abs(net))}`,
        since: e.since,
      });
  }
  for (const [key, net] of ledger) {
    if (covered.has(key) || net === 0) continue;
    found.push({
      where: key.replace(":", " "),
      problem: `the ledger has ${formatUsd(Math.abs(net))} for a record nothing expects`,
    });
  }
  // Charges nothing stood on: whatever they took must have gone back (or be on its way).
  const loose = await db
    .select({
      id: payments.id,
      // The outer row qualified by the table's name (a bare "id" in the subquery would be g's).
      net: sql<number>`("payments"."amount_cents" - coalesce((select sum(g.amount_cents) from payments g where g.parent_id = "payments"."id" and g.state <> 'declined'), 0))::int`,
    })
    .from(payments)
    .where(
      and(
        sql`${payments.kind} = 'charge'`,
        sql`${payments.state} = 'succeeded'`,
        sql`${payments.referenceTable} is null`,
      ),
    );
  for (const l of loose)
    if (Number(l.net) !== 0)
      found.push({
        where: `ledger row #${l.id}`,
        problem: `${formatUsd(Number(l.net))} taken for nothing stored, not given back`,
      });
  return found;
}
