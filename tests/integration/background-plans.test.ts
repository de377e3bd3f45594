import { writeFileSync } from "node:fs";
import { getTableName, isTable, sql, type Logger } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { driverClientOf } from "@db/driver-client.server";
import * as schema from "@db/schema";
import { findServiceReceipt } from "~/booking/form/receipt.server";
import { newManageToken } from "~/booking/reference.server";
import { reminderPlace, sendReminder } from "~/booking/reminders.server";
import { findInvoiceReceipt } from "~/forms/invoice/receipt.server";
import { claimRender, endClaim, renewClaim } from "~/forms/submission-keys.server";
import { encryptText } from "~/lib/crypto.server";
import { startMailWorker } from "~/mail/worker.server";
import { findOwnOrderView } from "~/shop/checkout/orders.server";
import { startMaintenance } from "../../server/maintenance";
import { createTestDatabase } from "../support/db";
import { waitFor } from "./smtp-peer";

/**
 * Cost flat as years pass (issue 39 item 3, docs/decisions/073-background-statements-use-indexes.md):
 * every statement the server runs in the background — the hourly housekeeping, the ledger's
 * reconciler with its hooks and lease, the mail worker, the reminder job — and the receipts' look-up
 * by payment uses an index on a table that grows with history.
 *
 * The statements are not listed here: they are what the code sends. A slice of ten years' history
 * is loaded (tens of thousands of rows per growing table, states and dates as years of use leave
 * them, with a few ledger rows left open for the reconciler), ANALYZEd; then each background job
 * runs once for real while Drizzle's logger (the `logger` test hook of openDatabase) records every
 * statement with its parameters; then each is EXPLAINed with those parameters (a plan with the
 * values bound, as PostgreSQL plans a statement's first executions and every later one whose generic
 * plan would cost more). A plan fails when it reads a growing table whole: a Seq Scan, or an index
 * scan with no condition on a full index (a walk of the primary key in its order). Every table of
 * the schema grows except the few fixed ones below; pg-boss's own tables are pg-boss's (archived
 * after an hour, deleted after a week).
 *
 * BACKGROUND_PLANS_REPORT=<file> writes each statement with the scans of its plan (the record's
 * tables are made so).
 */
const FIXED_TABLES = new Set(["locations", "reviews", "cache_entries", "categories", "products"]);
const GROWING = new Set<string>(
  Object.values(schema)
    .filter((value) => isTable(value))
    .map((table) => getTableName(table))
    .filter((name) => !FIXED_TABLES.has(name)),
);

type Sent = { step: string; sql: string; params: unknown[] };
const sent: Sent[] = [];
let step: string | undefined;
/** The test's own statements (loading, checking) begin with this and are not recorded. */
const OWN = "/* test */ ";
const logger: Logger = {
  logQuery(query, params) {
    if (step && !query.startsWith(OWN)) sent.push({ step, sql: query, params });
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

let conn: Connection;
const exec = (text: string) => conn.db.execute(sql.raw(OWN + text));
/** The rows of one of the test's own queries. */
async function rows<T = Record<string, unknown>>(text: string): Promise<T[]> {
  const result = await exec(text);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** How many rows of history per growing table (charges; the mail is twice as many). */
const CHARGES = 24_000;
const MANY = 20_000;
/** Ledger rows left open for the reconciler (and the records they serve). */
const OPEN = 900_001;

beforeAll(async () => {
  conn = await createTestDatabase({ seed: false, logger });
  await loadLedger();
  await loadRecords();
  await loadOutbox();
  await loadShortLived();
  await loadOpenRows();
  await exec("analyze");
}, 120_000);
afterAll(async () => {
  await conn?.close();
});

/** Charges three hours apart over eight years, a tenth declined; a refund for one booking in 75; the processor's books. */
async function loadLedger() {
  await exec(`
    insert into payments (id, created_at, updated_at, kind, state, amount_cents, purpose, intent, idempotency_key,
      processor, processor_transaction_id, brand, last4, message, reference_table, reference_id, resolved_at)
    select i, t, t + interval '2 seconds', 'charge', case when i % 10 = 0 then 'declined' else 'succeeded' end,
      15900 + (i % 7) * 1000, (array['service', 'order', 'invoice'])[i % 3 + 1],
      (array['book', 'checkout', 'invoice'])[i % 3 + 1], 'render-' || i, 'sandbox',
      case when i % 10 <> 0 then 'sbx_' || lpad(i::text, 24, '0') end, 'Visa', '4242',
      case when i % 10 = 0 then 'Your card was declined.' end,
      case when i % 10 <> 0 then (array['service_requests', 'orders', 'invoice_payments'])[i % 3 + 1] end,
      case when i % 10 <> 0 then i end,
      case when i % 10 <> 0 then t + interval '2 seconds' end
    from generate_series(1, ${CHARGES}) as g(i)
    cross join lateral (select now() - interval '1 day' - (${CHARGES} - i) * interval '3 hours' as t) as x`);
  await exec(`select setval(pg_get_serial_sequence('payments', 'id'), ${CHARGES})`);
  await exec(`
    insert into payments (created_at, updated_at, kind, state, amount_cents, purpose, intent, parent_id,
      idempotency_key, processor, processor_transaction_id, brand, last4, reference_table, reference_id, resolved_at)
    select created_at + interval '3 days', created_at + interval '3 days', 'refund', 'succeeded', amount_cents,
      'service', 'cancel', id, 'chg' || id || ':' || id, 'sandbox', 'sbx_r' || lpad(id::text, 23, '0'), brand, last4,
      'service_requests', id, created_at + interval '3 days'
    from payments where id % 75 = 3 and state = 'succeeded'`);
  await exec(`
    insert into sandbox_transactions (id, created_at, type, status, reference, parent_id, amount_cents, settles_at, brand, last4, message)
    select coalesce(p.processor_transaction_id, 'sbx_d' || lpad(p.id::text, 23, '0')), p.created_at, p.kind,
      case when p.state = 'declined' then 'declined' else 'approved' end, 'L' || p.id,
      (select c.processor_transaction_id from payments c where c.id = p.parent_id), p.amount_cents,
      case when p.state <> 'declined' then p.created_at + interval '1 day' end, p.brand, p.last4,
      case when p.state = 'declined' then 'Your card was declined.' else 'Approved.' end
    from payments p`);
}

/** What the charges paid for: bookings (and commercial requests, unpaid), their history, orders, invoice payments. */
async function loadRecords() {
  await exec(`
    insert into service_requests (id, created_at, kind, name, phone, email, address1, city, state, zip, country,
      service_date, service_time, contact_method, total_cents, payment_status, payment_id, payment_transaction_id,
      card_brand, card_last4, reference, manage_token_hash, booking_status)
    select id, created_at, 'residential', 'Visitor ' || id, '(248) 555-0100', 'v' || id || '@example.com',
      id || ' Main St', 'Troy', 'MI', '48083', 'United States', (created_at + interval '6 days')::date,
      (array['Morning (8 AM to 11 AM)', 'Afternoon (11 AM to 2 PM)', 'Late Afternoon (2 PM to 4 PM)', 'Evening (After 4 PM)'])[id % 4 + 1],
      'Phone', amount_cents, 'paid', id, processor_transaction_id, brand, last4, 'DV-' || id, md5('booking' || id),
      case when id % 75 = 3 then 'cancelled' else 'booked' end
    from payments where kind = 'charge' and purpose = 'service' and state = 'succeeded'`);
  await exec(`select setval(pg_get_serial_sequence('service_requests', 'id'), ${CHARGES})`);
  await exec(`
    insert into service_requests (created_at, kind, name, phone, email, address1, city, state, zip, country,
      service_date, service_time, contact_method)
    select now() - i * interval '4 hours', 'commercial', 'Business ' || i, '(248) 555-0101', 'b' || i || '@example.com',
      i || ' Industrial Dr', 'Troy', 'MI', '48083', 'United States', (now() - i * interval '4 hours')::date + 7,
      'Morning (8 AM to 11 AM)', 'Email'
    from generate_series(1, ${MANY / 2}) as g(i)`);
  await exec(`
    insert into booking_events (service_request_id, created_at, kind, to_date, to_time, payment_id, amount_cents, note, change_key)
    select id, created_at, 'booked', service_date, service_time, payment_id, total_cents, null, null
      from service_requests where kind = 'residential'
    union all
    select id, created_at + interval '4 days', 'reminder sent', service_date, service_time, null, null, 'Reminder e-mailed.', null
      from service_requests where kind = 'residential' and id % 75 <> 3
    union all
    select id, created_at + interval '3 days', 'cancelled', null, null, payment_id, -total_cents, null, 'chg' || id
      from service_requests where kind = 'residential' and id % 75 = 3`);
  await exec(`
    insert into orders (id, created_at, cart_id, status, total_cents, payment_id, card_brand, card_last4, name, email,
      phone, address, city, state, zip, reference, order_page_token_hash, order_status, installation_address,
      installation_city, installation_state, installation_zip)
    select id, created_at, gen_random_uuid(), 'paid', amount_cents, id, brand, last4, 'Buyer ' || id,
      'o' || id || '@example.com', '(248) 555-0102', id || ' Oak St', 'Troy', 'MI', '48083', 'DO-' || id,
      md5('order' || id), 'installed', id || ' Oak St', 'Troy', 'MI', '48083'
    from payments where kind = 'charge' and purpose = 'order' and state = 'succeeded'`);
  await exec(`
    insert into order_lines (order_id, name, price_cents, quantity)
    select id, 'Garage door', total_cents, 1 from orders`);
  await exec(`
    insert into invoice_payments (id, created_at, reference, status, payment_id, invoice_number, amount_cents, name,
      email, address, city, state, zip, card_holder)
    select id, created_at, 'DP-' || id, 'paid', id, 'INV-' || id, amount_cents, 'Payer ' || id,
      'i' || id || '@example.com', id || ' Elm St', 'Troy', 'MI', '48083', 'Payer ' || id
    from payments where kind = 'charge' and purpose = 'invoice' and state = 'succeeded'`);
}

/** The newest mails of the history, still pending (their jobs are not in this database's queue). */
const HISTORY_PENDING = 3;

/** Nine years of mail, two hours apart: bodies cleared after 30 days, one in 400 failed, the newest still pending. */
async function loadOutbox() {
  const mails = 2 * MANY;
  await exec(`
    insert into outbox (created_at, "to", mailbox, subject, text, content, status, attempts, sent_at, source_table,
      source_id, kind, cleared_at)
    select t, 'v' || j || '@example.com', 'v' || j || '@example.com', 'Mail ' || j,
      case when cleared then '' else 'Body ' || j end,
      case when not cleared then '{"title":"t","intro":"i","rows":[]}'::jsonb end,
      status, case when status = 'pending' then 0 else 1 end, case when status = 'sent' then t + interval '1 minute' end,
      'contact_submissions', j, (array['company', 'confirmation', 'receipt'])[j % 3 + 1],
      case when cleared then t + interval '30 days 30 minutes' end
    from generate_series(1, ${mails}) as g(j)
    cross join lateral (select now() - (${mails} - j) * interval '2 hours' as t) as x
    cross join lateral (select case when j > ${mails} - ${HISTORY_PENDING} then 'pending' when j % 400 = 0 then 'failed' else 'sent' end as status) as s
    cross join lateral (select s.status <> 'pending' and t < now() - interval '30 days 1 hour' as cleared) as c`);
}

/** Rows kept for a while and pruned: one in a hundred is past its time, the rest live. */
async function loadShortLived() {
  await exec(`
    insert into captcha_spent (token_hash, expires_at)
    select md5('token' || k), case when k % 100 = 0 then now() - interval '5 minutes' else now() + (k % 120 + 1) * interval '1 minute' end
    from generate_series(1, ${MANY}) as g(k)`);
  await exec(`
    insert into rate_limits (key, window_start, count, expires_at)
    select 'contact:10.' || (k / 256) || '.' || (k % 256), w, 1, w + interval '1 hour'
    from generate_series(1, ${MANY}) as g(k)
    cross join lateral (select case when k % 100 = 0 then now() - interval '2 hours' else now() - interval '10 minutes' end as w) as x`);
  await exec(`insert into categories (id, name) values (1, 'Garage doors')`);
  await exec(
    `insert into products (id, name, price_cents, image, category_id, stock) values (1, 'Door', 99900, 'door.webp', 1, 10)`,
  );
  await exec(`
    insert into carts (id, created_at, updated_at)
    select gen_random_uuid(), t, t from generate_series(1, ${MANY}) as g(k)
    cross join lateral (select case when k % 100 = 0 then now() - interval '100 days' else now() - (k % 90) * interval '1 day' end as t) as x`);
  await exec(`
    insert into cart_items (cart_id, product_id, created_at) select id, 1, created_at from carts`);
  await exec(`
    insert into submission_keys (key, form, submission_table, submission_id, created_at)
    select 'key-' || k, 'contact', 'contact_submissions', k,
      case when k % 100 = 0 then now() - interval '40 days' else now() - (k % 29) * interval '1 day' end
    from generate_series(1, ${MANY}) as g(k)`);
  await exec(`
    insert into submission_claims (key, form, state, status, message, updated_at)
    select 'claim-' || k, 'service', case when k % 2 = 0 then 'refused' else 'running' end,
      case when k % 2 = 0 then 402 end, case when k % 2 = 0 then 'Your card was declined.' end,
      case when k % 100 = 0 then now() - interval '2 days' else now() - (k % 20) * interval '1 hour' end
    from generate_series(1, ${MANY}) as g(k)`);
  await exec(`
    insert into posted_answers (id, form, path_hash, answer, created_at)
    select 'answer-' || k, 'invoice', md5('path' || k), '{}'::jsonb,
      case when k % 100 = 0 then now() - interval '2 hours' else now() - (k % 55) * interval '1 minute' end
    from generate_series(1, ${MANY}) as g(k)`);
}

/** A booking charge of the history that nothing has given back yet. */
const someBookingCharge = async (offset: number) =>
  Number(
    (
      await rows<{ id: number }>(
        `select id from payments where purpose = 'service' and kind = 'charge' and state = 'succeeded'
         and id % 75 <> 3 order by id desc offset ${offset} limit 1`,
      )
    )[0]!.id,
  );

/**
 * What a crash, a lost answer or a give-back waiting for its settlement leaves open, an hour old,
 * one of each rule of the reconciler: (a) a charge never answered that the processor has no record
 * of; (b) a booking stored pending whose charge the processor took; (c) an order stored pending
 * whose charge never reached it; (d) money taken with nothing standing on it (voided); (e) a
 * cancel's refund whose mails were never written; (f) an invoice payment stored pending, taken;
 * (g) a refund that went through after its change's mails; (h) a booking stored pending whose
 * charge never reached the processor (released); (i) a cancel's refund whose answer was lost.
 */
async function loadOpenRows() {
  const [a, b, c, d, e, f, g, h, i] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => OPEN + k);
  const [e1, g1, i1] = [await someBookingCharge(0), await someBookingCharge(1), await someBookingCharge(2)];
  const ledger = `insert into payments (id, created_at, updated_at, kind, state, amount_cents, purpose, intent, parent_id,
    idempotency_key, processor, processor_transaction_id, brand, last4, reference_table, reference_id, resolved_at)`;
  const ago = "now() - interval '1 hour'";
  await exec(`${ledger} values
    (${a}, ${ago}, ${ago}, 'charge', 'requested', 15900, 'service', 'book', null, 'open-a', 'sandbox', null, null, null, null, null, null),
    (${b}, ${ago}, ${ago}, 'charge', 'unknown', 15900, 'service', 'book', null, 'open-b', 'sandbox', null, 'Visa', '4242', 'service_requests', ${b}, ${ago}),
    (${c}, ${ago}, ${ago}, 'charge', 'unknown', 99900, 'order', 'checkout', null, 'open-c', 'sandbox', null, 'Visa', '4242', 'orders', ${c}, ${ago}),
    (${d}, ${ago}, ${ago}, 'charge', 'succeeded', 15900, 'service', 'book', null, 'open-d', 'sandbox', 'sbx_open_d', 'Visa', '4242', null, null, null),
    (${e}, ${ago}, ${ago}, 'refund', 'requested', 2000, 'service', 'cancel', ${e1}, 'chgE:${e1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${e1}, null),
    (${f}, ${ago}, ${ago}, 'charge', 'unknown', 25050, 'invoice', 'invoice', null, 'open-f', 'sandbox', null, 'Visa', '4242', 'invoice_payments', ${f}, ${ago}),
    (${g}, ${ago}, ${ago}, 'refund', 'requested', 2000, 'service', 'cancel', ${g1}, 'chgG:${g1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${g1}, ${ago}),
    (${h}, ${ago}, ${ago}, 'charge', 'unknown', 15900, 'service', 'book', null, 'open-h', 'sandbox', null, 'Visa', '4242', 'service_requests', ${h}, ${ago}),
    (${i}, ${ago}, ${ago}, 'refund', 'unknown', 2000, 'service', 'cancel', ${i1}, 'chgI:${i1}', 'sandbox', null, 'Visa', '4242', 'service_requests', ${i1}, null)`);
  await exec(`select setval(pg_get_serial_sequence('payments', 'id'), ${OPEN + 100})`);
  await exec(`
    insert into sandbox_transactions (id, created_at, type, status, reference, amount_cents, settles_at, brand, last4, message) values
    ('sbx_open_b', ${ago}, 'charge', 'approved', 'L${b}', 15900, now() + interval '1 day', 'Visa', '4242', 'Approved.'),
    ('sbx_open_d', ${ago}, 'charge', 'approved', 'L${d}', 15900, now() + interval '1 day', 'Visa', '4242', 'Approved.'),
    ('sbx_open_f', ${ago}, 'charge', 'approved', 'L${f}', 25050, now() + interval '1 day', 'Visa', '4242', 'Approved.')`);
  await exec(`
    insert into service_requests (id, kind, name, phone, email, address1, city, state, zip, country, service_date,
      service_time, contact_method, total_cents, payment_status, payment_id, card_brand, card_last4, reference,
      manage_token_hash, booking_status)
    select id, 'residential', 'Pending Visitor', '(248) 555-0103', 'pending@example.com', '1 Pending St', 'Troy', 'MI',
      '48083', 'United States', current_date + 10, 'Morning (8 AM to 11 AM)', 'Phone', 15900, 'pending', id, 'Visa',
      '4242', 'DV-PENDING-' || id, md5('pending' || id), 'booked'
    from unnest(array[${b}, ${h}]) as id`);
  await exec(`
    insert into booking_events (service_request_id, created_at, kind, payment_id, amount_cents, change_key) values
    (${e1}, ${ago}, 'cancelled', ${e}, -2000, 'chgE'), (${g1}, ${ago}, 'cancelled', ${g}, -2000, 'chgG'),
    (${i1}, ${ago}, 'cancelled', ${i}, -2000, 'chgI')`);
  await exec(`
    insert into orders (id, cart_id, status, total_cents, payment_id, name, email, phone, address, city, state, zip, reference)
    values (${c}, gen_random_uuid(), 'pending', 99900, ${c}, 'Pending Buyer', 'buyer@example.com', '(248) 555-0104',
      '2 Pending St', 'Troy', 'MI', '48083', 'DO-PENDING')`);
  await exec(`
    insert into invoice_payments (id, reference, status, payment_id, invoice_number, amount_cents, name, email, address,
      city, state, zip, card_holder)
    values (${f}, 'DP-PENDING', 'pending', ${f}, 'INV-PENDING', 25050, 'Pending Payer', 'payer@example.com',
      '3 Pending St', 'Troy', 'MI', '48083', 'Pending Payer')`);
}

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Total Cost"?: number;
  Plans?: PlanNode[];
};

/** A plan's scans of tables, as EXPLAIN names them ("Index Scan using payments_open_idx on payments"). */
function scans(node: PlanNode): string[] {
  const index = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  const table = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  const own =
    index || (table && node["Node Type"] !== "ModifyTable")
      ? [`${node["Node Type"]}${index}${table}${node["Index Cond"] ? ` (${node["Index Cond"]})` : ""}`]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

/**
 * The scans of `plan` that read a growing table whole: a Seq Scan, or an index (only) scan with no
 * Index Cond on an index that is not partial (a walk of the whole index in its order).
 */
function wholeReads(plan: PlanNode, partialIndexes: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    const table = node["Relation Name"];
    if (table && GROWING.has(table)) {
      const type = node["Node Type"];
      if (type === "Seq Scan") found.push(`Seq Scan on ${table}`);
      else if (
        (type === "Index Scan" || type === "Index Only Scan") &&
        !node["Index Cond"] &&
        !partialIndexes.has(node["Index Name"] ?? "")
      )
        found.push(`${type} using ${node["Index Name"]} on ${table} with no condition`);
    }
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return found;
}

/** The plan of `text` with `params` bound (not run), through the driver the handle uses. */
async function explain(text: string, params: unknown[]): Promise<PlanNode> {
  const client = driverClientOf(conn.db);
  const query = `explain (format json) ${text}`;
  let result: unknown[];
  if (client && "postgres" in client) result = [...(await client.postgres.unsafe(query, params as never[]))];
  else if (client && "pglite" in client) result = (await client.pglite.query(query, params)).rows;
  else throw new Error("no driver client");
  const cell = Object.values(result[0] as Record<string, unknown>)[0];
  const json = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  return json[0]!.Plan;
}

async function partialIndexes(): Promise<Set<string>> {
  const found = await rows<{ name: string }>(
    "select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid where i.indpred is not null",
  );
  return new Set(found.map((r) => r.name));
}

/** Statements that read or write rows (not SET, savepoints or locks of the session). */
const PLANNABLE = /^\s*(select|insert|update|delete|with)\b/i;

const countOf = async (query: string) => Number((await rows<{ n: unknown }>(query))[0]!.n);

describe("the background jobs at ten years' scale", () => {
  it("the housekeeping round and the reconciler (under its lease) do their work", async () => {
    await during("maintenance", async () => {
      const round = startMaintenance(conn.db, { retentionDays: 30 });
      await round.stop(); // waits for the round and the reconciler's round the start began
      await claimRender(conn.db, "ledger-reconciler", "lease", 60_000);
      await renewClaim(conn.db, "ledger-reconciler");
      await endClaim(conn.db, "ledger-reconciler", { status: 409, message: "busy" });
      await endClaim(conn.db, "ledger-reconciler");
    });
    // Every open row was settled by the rule meant for it, and the records with them.
    expect(
      await countOf(`select count(*) as n from payments where state in ('requested', 'unknown')
        or (state = 'succeeded' and resolved_at is null)`),
    ).toBe(0);
    expect(await rows(`select payment_status from service_requests where id = ${OPEN + 1}`)).toEqual([
      { payment_status: "paid" },
    ]);
    expect(await rows(`select booking_status from service_requests where id = ${OPEN + 7}`)).toEqual([
      { booking_status: "cancelled" },
    ]);
    expect(await rows(`select order_status from orders where id = ${OPEN + 2}`)).toEqual([
      { order_status: "cancelled" },
    ]);
    expect(await rows(`select status from invoice_payments where id = ${OPEN + 5}`)).toEqual([{ status: "paid" }]);
    expect(await countOf(`select count(*) as n from payments where kind = 'void' and parent_id = ${OPEN + 3}`)).toBe(1);
    // What had expired is gone; what is live stays.
    expect(await countOf("select count(*) as n from captcha_spent")).toBe(MANY - MANY / 100);
    expect(await countOf("select count(*) as n from carts")).toBe(MANY - MANY / 100);
    expect(await countOf("select count(*) as n from posted_answers")).toBe(MANY - MANY / 100);
    expect(
      await countOf(
        "select count(*) as n from outbox where cleared_at is null and status <> 'pending' and sent_at < now() - interval '30 days'",
      ),
    ).toBe(0);
  });

  it("the mail worker sends the reconciler's mails (one refused)", async () => {
    const pending = () =>
      countOf("select count(*) as n from outbox where status = 'pending' and attempts = 0 and text <> ''");
    const before = await pending();
    await during("mail worker", async () => {
      // The first message is refused, on every attempt: markFailed runs, and the row stays unsent.
      let refused: string | undefined;
      const worker = await startMailWorker({
        conn,
        transport: {
          description: "test",
          async send(message) {
            refused ??= message.messageId;
            if (message.messageId === refused) throw new Error("550 mailbox unavailable");
          },
          close() {},
        },
        from: "Office <office@example.com>",
        pollMs: 200,
        maxAttempts: 1,
        retryBaseMs: 1_000,
      });
      try {
        await waitFor(async () => (await pending()) === HISTORY_PENDING, 20_000, 200);
      } finally {
        await worker.stop();
      }
    });
    expect(before).toBeGreaterThan(HISTORY_PENDING);
    expect(await countOf("select count(*) as n from outbox where status <> 'sent' and last_error like '550%'")).toBe(1);
  });

  it("the reminder job mails a booking due", async () => {
    const { token, hash } = newManageToken();
    const [booking] = await rows<{ id: number; service_date: string; service_time: string }>(
      `update service_requests set service_date = current_date + 30, manage_token_hash = '${hash}'
       where id = ${await someBookingCharge(5)} returning id, service_date::text, service_time`,
    );
    const job = {
      bookingId: Number(booking!.id),
      serviceDate: booking!.service_date,
      serviceTime: booking!.service_time,
      token: encryptText(token, reminderPlace(Number(booking!.id))),
    };
    expect(await during("reminder", () => sendReminder(conn.db, job))).toBe("sent");
  });

  it("the receipts find their record by its payment", async () => {
    const [order] = await rows<{ payment_id: number; cart_id: string }>(
      "select payment_id, cart_id from orders order by id limit 1",
    );
    const booking = await someBookingCharge(10);
    const found = await during("receipts", async () => [
      await findServiceReceipt(conn.db, booking),
      await findInvoiceReceipt(conn.db, 23), // an invoice's charge (23 % 3 = 2), not declined
      await findOwnOrderView(conn.db, { paymentId: Number(order!.payment_id) }, order!.cart_id),
    ]);
    expect(found.map((receipt) => receipt !== null)).toEqual([true, true, true]);
  });

  it("every statement they sent reads the growing tables through an index", async () => {
    const partial = await partialIndexes();
    const seen = new Map<string, Sent>();
    for (const statement of sent)
      if (PLANNABLE.test(statement.sql) && !seen.has(statement.sql)) seen.set(statement.sql, statement);
    expect(new Set([...seen.values()].map((s) => s.step))).toEqual(
      new Set(["maintenance", "mail worker", "reminder", "receipts"]),
    );
    const report: string[] = [];
    const failures: string[] = [];
    for (const statement of seen.values()) {
      const plan = await explain(statement.sql, statement.params);
      const bad = wholeReads(plan, partial);
      report.push(
        `- [${statement.step}] ${statement.sql.replace(/\s+/g, " ")}\n  cost ${plan["Total Cost"]}: ${scans(plan).join("; ") || "(no table scanned)"}`,
      );
      if (bad.length > 0)
        failures.push(
          `[${statement.step}] ${statement.sql.replace(/\s+/g, " ")}\n  reads whole: ${bad.join(", ")}\n  plan: ${scans(plan).join("; ")}`,
        );
    }
    if (process.env.BACKGROUND_PLANS_REPORT)
      writeFileSync(process.env.BACKGROUND_PLANS_REPORT, report.join("\n") + "\n");
    expect(failures, failures.join("\n\n")).toEqual([]);
  });

  it("the check itself fails on a filter no index serves", async () => {
    const partial = await partialIndexes();
    expect(wholeReads(await explain("select id from outbox where subject = $1", ["Mail 7"]), partial)).toEqual([
      "Seq Scan on outbox",
    ]);
    // In id order, filtered on a column no index has: the whole table, whichever way the planner reads it.
    const ordered = wholeReads(
      await explain("select id from payments where amount_cents = $1 order by id limit 5", [15900]),
      partial,
    );
    expect(ordered).toHaveLength(1);
    expect(ordered[0]).toMatch(/^(Seq Scan on payments|Index Scan using payments_pkey on payments with no condition)$/);
  });
});
