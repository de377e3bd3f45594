import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { addDays } from "~/booking/availability";
import { cancelBooking } from "~/booking/cancel.server";
import { findBookingByToken } from "~/booking/manage.server";
import { env } from "~/lib/env.server";
import type { PaymentGateway } from "~/payments/gateway";
import { reconcile } from "~/payments/reconcile.server";
import { createSandboxGateway, settleImmediately } from "~/payments/sandbox.server";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { auditPayments } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import { book, ledgerOf, mailsTo, move, postBooking, sum, weekdays } from "./ledger-support";

/**
 * The ledger against a processor that stalls and a database backend that dies (cases A to C of
 * the drill), by the drill's own means: a second connection holding `LOCK TABLE … IN SHARE MODE`
 * so the processor's books stall at their next write, and `pg_terminate_backend` on the backend
 * blocked there. The PostgreSQL server only (PGlite has one connection).
 */
let conn: Connection & { url?: string };
let admin: postgres.Sql;
/** A processor that finishes a stalled request however late (as a real one may, after our timeout). */
let late: PaymentGateway;
let lateSettled: PaymentGateway;
const saved = { lease: env().PAYMENT_LEASE_MS };
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  admin = postgres(conn.url!, { max: 2, onnotice: () => {} });
  late = createSandboxGateway({ db: conn.db, processingLimitMs: 120_000 });
  lateSettled = createSandboxGateway({ db: conn.db, processingLimitMs: 120_000, settlesAt: settleImmediately });
  // A sender holds its row for 1.5 s here: the stalls below outlast it, as the drill's 95 s did.
  env().PAYMENT_LEASE_MS = 1_500;
});
afterAll(async () => {
  env().PAYMENT_LEASE_MS = saved.lease;
  await admin?.end();
  await conn?.close();
});

/** Holds the processor's books: every write there waits until `release`. */
async function holdBooks() {
  const held = await admin.reserve();
  await held`begin`;
  await held`lock table sandbox_transactions in share mode`;
  return async () => {
    await held`commit`;
    held.release();
  };
}
let release: (() => Promise<void>) | undefined;
afterEach(async () => {
  await release?.();
  release = undefined;
});

const weekday = weekdays();
const round = (gateway: PaymentGateway) => reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks, gateway });
const refundsAt = (reference: string) =>
  rows<{ id: string; status: string; amount_cents: number }>(
    conn.db,
    `select id, status, amount_cents from sandbox_transactions where type = 'refund' and reference = '${reference}'`,
  );
/** Until `check` holds (polling the database), at most 20 s. */
const until = (check: () => Promise<boolean>) => expect.poll(check, { timeout: 20_000, interval: 100 }).toBe(true);
const leaseRunOut = (id: number) => async () =>
  (await rows(conn.db, `select id from payments where id = ${id} and (lease_until is null or lease_until < now())`))
    .length === 1;

describe("money that survives a stalled processor and a dead backend (PostgreSQL server)", () => {
  it("A. a refund sent twice: the processor stalls past the sender's lease; the reconciler asks before sending again, and the card gets $69.05 once", async () => {
    const b = await book(conn.db, weekday(0), { gateway: lateSettled }); // a Sunday: $199.00, settled at once
    release = await holdBooks();
    const moving = move(conn.db, b, { serviceDate: addDays(b.serviceDate, 2) }, lateSettled);
    await until(async () => (await ledgerOf(conn.db, b.id)).some((r) => r.kind === "refund"));
    const refund = (await ledgerOf(conn.db, b.id)).find((r) => r.kind === "refund")!;
    await until(leaseRunOut(refund.id));
    // The sender is still waiting on the processor; the reconciler takes the row over and sends again.
    const reconciling = round(lateSettled);
    await until(
      async () => (await rows(conn.db, `select id from payments where id = ${refund.id} and sends = 2`)).length === 1,
    );
    await release();
    release = undefined;
    const [moved] = await Promise.all([moving, reconciling]);
    expect(moved.ok).toBe(true);
    await until(async () => {
      await round(lateSettled);
      return sum(await ledgerOf(conn.db, b.id), "refund") === 69_05;
    });

    const atProcessor = await refundsAt(`L${refund.id}`);
    expect(atProcessor.filter((t) => t.status === "approved").map((t) => t.amount_cents)).toEqual([69_05]);
    expect(sum(await ledgerOf(conn.db, b.id), "refund")).toBe(69_05);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.paidLine).toContain("$129.95");
    expect((await mailsTo(conn.db, b.email)).filter((m) => m.text.includes("$138.10"))).toEqual([]);
    expect(await auditPayments(conn.db, { gateway: lateSettled })).toEqual([]);
  });

  it("B. a late approval never overwrites 'nothing was charged': the processor's approval after the reconciler decided is recorded as late and the money given back", async () => {
    const email = `late-${crypto.randomUUID().slice(0, 8)}@example.com`;
    release = await holdBooks();
    const posting = postBooking(conn.db, weekday(2), { gateway: late, email });
    await until(
      async () => (await rows(conn.db, `select id from payments where state = 'requested' and sends = 1`)).length === 1,
    );
    const [charge] = await rows<{ id: number }>(
      conn.db,
      `select id from payments where state = 'requested' and sends = 1`,
    );
    await until(leaseRunOut(charge!.id));
    // The reconciler asks: the processor has no record (its write is stalled), so nothing was taken.
    const events = await round(late);
    expect(events.map((e) => e.kind)).toEqual(["not-taken"]);
    await release();
    release = undefined;
    // The processor finishes the stalled charge: its approval reaches a row decided "declined".
    const answer = await posting;
    expect(answer.ok).toBe(false);
    const [row] = await rows<{ state: string; late_status: string }>(
      conn.db,
      `select state, late_status from payments where id = ${charge!.id}`,
    );
    expect(row).toEqual({ state: "declined", late_status: "approved" });
    expect(await rows(conn.db, `select id from service_requests where email = '${email}'`)).toEqual([]);

    // The next round gives the money the processor took back (a void: it has not settled).
    const after = await round(late);
    expect(after.map((e) => [e.kind, e.outcome])).toEqual([["undone", "voided"]]);
    const [atProcessor] = await rows<{ status: string }>(
      conn.db,
      `select status from sandbox_transactions where type = 'charge' and reference = 'L${charge!.id}'`,
    );
    expect(atProcessor?.status).toBe("voided");
    expect(await round(late)).toEqual([]);
    expect(await auditPayments(conn.db, { gateway: late })).toEqual([]);
  });

  it("C. a void whose answer is unknown is looked up and finished: its processor gave up mid-cancel, the reconciler voids the charge once", async () => {
    const b = await book(conn.db, weekday(3), { gateway: late }); // settles at midnight: a same-day cancel voids
    release = await holdBooks();
    // The processor's backend gives up on the stalled void (its own limit): no answer reaches us.
    const impatient = createSandboxGateway({ db: conn.db, processingLimitMs: 300 });
    const cancelled = await cancelBooking(conn.db, b.token, { gateway: impatient });
    expect(cancelled.ok).toBe(true);
    await release();
    release = undefined;
    const unknown = (await ledgerOf(conn.db, b.id)).find((r) => r.kind === "void")!;
    expect(unknown.state).toBe("unknown");

    await until(leaseRunOut(unknown.id));
    await round(late);
    const ledger = await ledgerOf(conn.db, b.id);
    expect(ledger.filter((r) => r.kind === "void").map((r) => r.state)).toEqual(["succeeded"]);
    const [atProcessor] = await rows<{ status: string }>(
      conn.db,
      `select status from sandbox_transactions where type = 'charge' and reference = 'L${b.paymentId}'`,
    );
    expect(atProcessor?.status).toBe("voided");
    expect((await findBookingByToken(conn.db, b.token))?.paidLine).not.toContain("pending");
    expect(await auditPayments(conn.db, { gateway: late })).toEqual([]);
  });

  it("D. a move's store and the reconciler finishing the same refund take the booking before its rows: neither deadlocks", async () => {
    const b = await book(conn.db, weekday(0), { gateway: lateSettled }); // a Sunday: $199.00, settled at once
    const moved = await move(conn.db, b, { serviceDate: addDays(b.serviceDate, 2) }, lateSettled);
    expect(moved.ok).toBe(true);
    const refund = (await ledgerOf(conn.db, b.id)).find((r) => r.kind === "refund")!;
    expect(refund.state).toBe("succeeded");
    // As if the move's mails were not written yet: its store (below) and the reconciler both finish it.
    await admin`update payments set resolved_at = null where id = ${refund.id}`;

    // The move's store: the booking's lock first, then its rows (app/booking/reschedule.server.ts).
    const store = await admin.reserve();
    try {
      await store`begin`;
      // Were there a cycle, this side would find it first and fail (the reconciler waits 1 s).
      await store`set local deadlock_timeout = '10ms'`;
      await store`select id from service_requests where id = ${b.id} for update`;
      const reconciling = round(lateSettled);
      await until(
        async () => (await rows(conn.db, `select pid from pg_stat_activity where wait_event_type = 'Lock'`)).length > 0,
      );
      await store`update payments set resolved_at = now() where id = ${refund.id} and resolved_at is null`;
      await store`commit`;
      // The reconciler found the row finished by the store: no second finish, no second mail.
      expect(await reconciling).toEqual([]);
    } finally {
      store.release();
    }
    expect(await auditPayments(conn.db, { gateway: lateSettled })).toEqual([]);
  });
});
