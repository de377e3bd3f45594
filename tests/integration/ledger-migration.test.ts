import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The ledger's migration (issue 36, db/migrations/0017–0019) on rows written before it: each old
 * payments row (one per charge, its status and refunded amount copied columns) becomes the charge
 * with the same id — so bookings, orders and invoice payments still point at it — plus one row
 * per void or refund that acted on it; states and the business side (resolved) follow. On PGlite,
 * and on the PostgreSQL server when DATABASE_URL is set.
 */
const LAST_BEFORE = 16; // 0016_invoice_payment_reference
let folder: string;
let before: string;

type Sql = (text: string) => Promise<Record<string, unknown>[]>;
let query: Sql;
let migrateTo: (dir: string) => Promise<void>;
let close: () => Promise<void>;

beforeAll(async () => {
  folder = path.resolve("db/migrations");
  before = mkdtempSync(path.join(tmpdir(), "ledger-migration-"));
  cpSync(folder, before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= LAST_BEFORE);
  writeFileSync(journalPath, JSON.stringify(journal));

  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `mig_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const db = drizzlePostgres(client);
    query = async (text) => [...(await client.unsafe(text))] as Record<string, unknown>[];
    migrateTo = (dir) => migratePostgres(db, { migrationsFolder: dir });
    close = async () => {
      await client.end();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  } else {
    const client = new PGlite();
    const db = drizzlePglite(client);
    query = async (text) => (await client.query<Record<string, unknown>>(text)).rows;
    migrateTo = (dir) => migratePglite(db, { migrationsFolder: dir });
    close = () => client.close();
  }
});
afterAll(async () => {
  await close?.();
  rmSync(before, { recursive: true, force: true });
});

describe("the ledger's migration", () => {
  it("turns old payments into charges (same ids) with their voids and refunds, states and business side", async () => {
    await migrateTo(before);
    await query(`
      insert into payments (id, created_at, updated_at, amount_cents, refunded_cents, purpose, status, idempotency_key, processor, processor_transaction_id, brand, last4, reference_table, reference_id) values
        (1, now(), now(), 12995, 0,     'service', 'approved', 'residential-service:a', 'sandbox', 'sbx_1', 'Visa', '4242', 'service_requests', 10),
        (2, now(), now(), 19900, 0,     'service', 'voided',   'residential-service:b', 'sandbox', 'sbx_2', 'Visa', '4242', 'service_requests', 11),
        (3, now(), now(), 19900, 6905,  'service', 'approved', 'residential-service:c', 'sandbox', 'sbx_3', 'Visa', '4242', 'service_requests', 12),
        (4, now(), now(), 24900, 24900, 'order',   'refunded', 'checkout:d',            'sandbox', 'sbx_4', 'Visa', '4242', 'orders', 3),
        (5, now(), now(), 7777,  0,     'invoice', 'voided',   'invoice:e',             'sandbox', 'sbx_5', 'Visa', '4242', 'reconciliation', null),
        (6, now(), null,  5000,  0,     'invoice', 'pending',  'invoice:f',             'sandbox', null,    'Visa', '0119', null, null),
        (7, now(), now(), 5000,  0,     'invoice', 'pending',  'invoice:g',             'sandbox', null,    'Visa', '0119', 'invoice_payments', 4),
        (8, now(), now(), 5000,  0,     'order',   'declined', 'checkout:h',            'sandbox', null,    'Visa', '0002', null, null),
        (9, now(), now(), 6905,  0,     'service', 'approved', 'reschedule:12:k',       'sandbox', 'sbx_9', 'Visa', '4242', 'service_requests', 12)`);
    await query(`select setval('payments_id_seq', 9)`);
    await migrateTo(folder);

    const rows = await query(
      `select id, kind, state, amount_cents, parent_id, intent, reference_table, reference_id, resolved_at is not null as resolved
         from payments order by id`,
    );
    const shape = rows.map((r) => [
      r.id,
      r.kind,
      r.state,
      r.amount_cents,
      r.parent_id,
      r.intent,
      r.reference_table,
      r.reference_id,
      r.resolved,
    ]);
    expect(shape.slice(0, 9)).toEqual([
      [1, "charge", "succeeded", 12995, null, "book", "service_requests", 10, true],
      [2, "charge", "succeeded", 19900, null, "book", "service_requests", 11, true],
      [3, "charge", "succeeded", 19900, null, "book", "service_requests", 12, true],
      [4, "charge", "succeeded", 24900, null, "checkout", "orders", 3, true],
      [5, "charge", "succeeded", 7777, null, "invoice", null, null, true],
      [6, "charge", "requested", 5000, null, "invoice", null, null, false],
      [7, "charge", "unknown", 5000, null, "invoice", "invoice_payments", 4, true],
      [8, "charge", "declined", 5000, null, "checkout", null, null, true],
      [9, "charge", "succeeded", 6905, null, "move", "service_requests", 12, true],
    ]);
    const children = shape
      .slice(9)
      .map(([, kind, state, amount, parent, intent, table, ref, resolved]) => [
        kind,
        state,
        amount,
        parent,
        intent,
        table,
        ref,
        resolved,
      ]);
    expect(children).toEqual(
      expect.arrayContaining([
        ["void", "succeeded", 19900, 2, "cancel", "service_requests", 11, true],
        ["void", "succeeded", 7777, 5, "undo", null, null, true],
        ["refund", "succeeded", 6905, 3, "move", "service_requests", 12, true],
        ["refund", "succeeded", 24900, 4, "cancel", "orders", 3, true],
      ]),
    );
    expect(children).toHaveLength(4);
    // What each record has been paid, net, as the audit sums it: the same money as before.
    const net = await query(`
      select reference_table as t, reference_id as id,
             sum(case when kind = 'charge' then amount_cents else -amount_cents end) filter (where state = 'succeeded')::int as net
        from payments where reference_table is not null group by 1, 2 order by 1, 2`);
    expect(net.map((r) => [r.t, r.id, r.net])).toEqual([
      ["invoice_payments", 4, null],
      ["orders", 3, 0],
      ["service_requests", 10, 12995],
      ["service_requests", 11, 0],
      ["service_requests", 12, 19900 - 6905 + 6905],
    ]);
    // New rows take ids after the old ones, and the old columns are gone.
    const columns = await query(
      `select column_name from information_schema.columns where table_name = 'payments' and column_name in ('status', 'refunded_cents')`,
    );
    expect(columns).toEqual([]);
  }, 120_000); // a new PGlite cluster and every migration, twice over: ~20 s alone, more on a busy machine
});
