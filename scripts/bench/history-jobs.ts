// The background half of `npm run bench -- --history` (history.mjs runs this with tsx, on the
// scratch database, with the server stopped and the server's environment):
//   tsx scripts/bench/history-jobs.ts <out.json> receipts <booking payment id> <invoice payment id>
//     writes the signed receipt paths of those payments (the pages the bench then reads)
//   tsx scripts/bench/history-jobs.ts <out.json> round <booking payment id>
//     runs one round of every background job as tests/integration/background-plans.test.ts does
//     (the housekeeping round with the ledger's reconciler, the reconciler's lease, a reminder, the
//     mail worker sending the round's mail, the receipts' look-ups) while Drizzle's logger records each statement sent; then
//     runs each distinct statement again under EXPLAIN (ANALYZE, FORMAT JSON) with its parameters,
//     in a transaction rolled back, and writes its execution time and plan.
import { writeFileSync } from "node:fs";
import type { Logger } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase } from "@db/client.server";
import { findServiceReceipt, serviceReceiptPath } from "~/booking/form/receipt.server";
import { newManageToken } from "~/booking/reference.server";
import { reminderPlace, sendReminder } from "~/booking/reminders.server";
import { findInvoiceReceipt, invoiceReceiptPath } from "~/forms/invoice/receipt.server";
import { claimRender, endClaim, renewClaim } from "~/forms/submission-keys.server";
import { encryptText } from "~/lib/crypto.server";
import { startMailWorker } from "~/mail/worker.server";
import { findOwnOrderView } from "~/shop/checkout/orders.server";
import { startMaintenance } from "../../server/maintenance";

type Sent = { step: string; sql: string; params: unknown[] };
type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
};
type Explained = { "Execution Time": number; "Planning Time": number; Plan: PlanNode };

const [out, mode, ...ids] = process.argv.slice(2);
const url = process.env.DATABASE_URL;
if (!out || !url) throw new Error("usage: DATABASE_URL=… tsx history-jobs.ts <out.json> receipts|round <ids…>");
/** The bench's own statements (setting up, counting): not the background's, never recorded. */
const own = postgres(url, { max: 1, onnotice: () => {} });

const sent: Sent[] = [];
let step: string | undefined;
const logger: Logger = {
  logQuery(query, params) {
    if (step) sent.push({ step, sql: query, params });
  },
};

/** Runs `work` with what it sends recorded under `name`. */
async function during<T>(name: string, work: () => Promise<T>): Promise<T> {
  step = name;
  try {
    return await work();
  } finally {
    step = undefined;
  }
}

/** One round of each background job, as the test runs them; the statements land in `sent`. */
async function backgroundRound(bookingPayment: number) {
  const conn = await openDatabase({ databaseUrl: url, seed: false, logger });
  await during("maintenance", async () => {
    await startMaintenance(conn.db, { retentionDays: 30 }).stop();
    await claimRender(conn.db, "ledger-reconciler", "lease", 60_000);
    await renewClaim(conn.db, "ledger-reconciler");
    await endClaim(conn.db, "ledger-reconciler");
  });
  const { token, hash } = newManageToken();
  const [booking] = await own`update service_requests set service_date = current_date + 30, manage_token_hash = ${hash}
    where payment_id = ${bookingPayment} returning id, service_date::text as date, service_time as time`;
  const job = {
    bookingId: Number(booking!.id),
    serviceDate: String(booking!.date),
    serviceTime: String(booking!.time),
    token: encryptText(token, reminderPlace(Number(booking!.id))),
  };
  await during("reminder", () => sendReminder(conn.db, job));
  await during("mail worker", async () => {
    const worker = await startMailWorker({
      conn,
      transport: { description: "bench", async send() {}, close() {} },
      from: "Office <office@example.com>",
      pollMs: 200,
      maxAttempts: 1,
      retryBaseMs: 1_000,
    });
    for (let i = 0; i < 50; i++) {
      const [row] =
        await own`select count(*)::int as n from outbox where status = 'pending' and created_at > now() - interval '1 hour'`;
      if (row?.n === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await worker.stop();
  });
  const [order] = await own`select payment_id, cart_id from orders order by id desc limit 1`;
  const [invoice] = await own`select payment_id from invoice_payments order by id desc limit 1`;
  await during("receipts", async () => {
    await findServiceReceipt(conn.db, bookingPayment);
    await findInvoiceReceipt(conn.db, Number(invoice!.payment_id));
    await findOwnOrderView(conn.db, { paymentId: Number(order!.payment_id) }, String(order!.cart_id));
  });
  await conn.close();
}

/** A plan's scans of tables, as EXPLAIN names them ("Index Scan using payments_open_idx on payments"). */
function scans(node: PlanNode): string[] {
  const index = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  const table = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const self = index || (table && node["Node Type"] !== "ModifyTable") ? [`${node["Node Type"]}${index}${table}`] : [];
  return [...self, ...(node.Plans ?? []).flatMap(scans)];
}

/**
 * A statement's parameters as the driver is handed them again: JSON text (pg-boss's batch of jobs)
 * parsed, since postgres-js encodes a parameter PostgreSQL types as json itself, and would encode
 * the text a second time.
 */
const asSent = (params: unknown[]) =>
  params.map((p) => {
    if (typeof p !== "string" || !/^[[{]/.test(p)) return p;
    try {
      return JSON.parse(p) as unknown;
    } catch {
      return p;
    }
  });

/** Statements that read or write rows (not SET, savepoints or locks of the session). */
const PLANNABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Each distinct statement sent, run again under EXPLAIN ANALYZE in a transaction that is rolled back. */
async function timeStatements() {
  const seen = new Map<string, Sent & { runs: number }>();
  for (const s of sent) {
    if (!PLANNABLE.test(s.sql)) continue;
    const known = seen.get(s.sql);
    if (known) known.runs++;
    else seen.set(s.sql, { ...s, runs: 1 });
  }
  const timed = [];
  const conn = await own.reserve();
  for (const s of seen.values()) {
    await conn.unsafe("begin");
    try {
      const [row] = await conn.unsafe(`explain (analyze, format json) ${s.sql}`, asSent(s.params) as never[]);
      const cell = Object.values(row as Record<string, unknown>)[0];
      const [plan] = (typeof cell === "string" ? JSON.parse(cell) : cell) as Explained[];
      const ms = Number(plan!["Execution Time"].toFixed(3));
      timed.push({
        step: s.step,
        runs: s.runs,
        ms,
        planningMs: plan!["Planning Time"],
        sql: s.sql,
        plan: scans(plan!.Plan),
      });
    } catch (error) {
      // Run again, it conflicts with the row it wrote the first time: its plan alone, untimed.
      await conn.unsafe("rollback");
      await conn.unsafe("begin");
      const plan = await conn
        .unsafe(`explain (format json) ${s.sql}`, asSent(s.params) as never[])
        .then(([row]) => {
          const cell = Object.values(row as Record<string, unknown>)[0];
          return scans(((typeof cell === "string" ? JSON.parse(cell) : cell) as Explained[])[0]!.Plan);
        })
        .catch(() => []);
      timed.push({ step: s.step, runs: s.runs, ms: null, sql: s.sql, plan, error: (error as Error).message });
    } finally {
      await conn.unsafe("rollback");
    }
  }
  conn.release();
  return timed;
}

try {
  if (mode === "receipts") {
    const [booking, invoice] = ids.map(Number);
    writeFileSync(
      out,
      JSON.stringify({ service: serviceReceiptPath(booking!), invoice: invoiceReceiptPath(invoice!) }),
    );
  } else {
    const started = performance.now();
    await backgroundRound(Number(ids[0]));
    const roundMs = Math.round(performance.now() - started);
    writeFileSync(out, JSON.stringify({ roundMs, statements: await timeStatements() }));
  }
} finally {
  await own.end({ timeout: 5 });
}
process.exit(0);
