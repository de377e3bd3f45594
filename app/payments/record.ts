/**
 * The business records a ledger row can serve, as a typed union: what the code passes and
 * dispatches on. The table name is the row's storage only (payments.reference_table, which
 * Drizzle Studio shows); it is read back through `recordOf`, the one place that knows it.
 */
export const RECORD_TABLES = {
  booking: "service_requests",
  order: "orders",
  invoice: "invoice_payments",
} as const;

export type RecordKind = keyof typeof RECORD_TABLES;

export type LedgerRecord = { kind: RecordKind; id: number };

export const tableOf = (record: LedgerRecord): string => RECORD_TABLES[record.kind];

const KIND_OF_TABLE = new Map<string, RecordKind>(
  Object.entries(RECORD_TABLES).map(([kind, table]) => [table, kind as RecordKind]),
);

/** The record a stored row (or a stored submission) serves; null for one that serves none. */
export function recordOf(stored: { table: string | null; id: number | null }): LedgerRecord | null {
  const kind = stored.table === null ? undefined : KIND_OF_TABLE.get(stored.table);
  return kind && stored.id !== null ? { kind, id: stored.id } : null;
}

export const bookingRecord = (id: number): LedgerRecord => ({ kind: "booking", id });
export const orderRecord = (id: number): LedgerRecord => ({ kind: "order", id });
export const invoiceRecord = (id: number): LedgerRecord => ({ kind: "invoice", id });
