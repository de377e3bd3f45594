import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { addDays } from "~/booking/availability";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { findBookingByToken } from "~/booking/manage.server";
import { PRICED_KEY_MESSAGE } from "~/forms/pipeline/reply";
import { paymentKey } from "~/payments/command.server";
import type { PaymentGateway } from "~/payments/gateway";
import { chargeOnce } from "~/payments/payments.server";
import { reconcile } from "~/payments/reconcile.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { RESOLVED_SUBJECTS } from "~/mail/payment-resolved.server";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { auditPayments } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import {
  book,
  CARD,
  LOST,
  ledgerOf,
  mailsTo,
  move,
  MORNING,
  order,
  payInvoice,
  postBooking,
  stockedProduct,
  sum,
  UNREACHED,
  weekdays,
} from "./ledger-support";

/**
 * The ledger tried as bad luck would (cases D to H of the drill): a processor that voids what the
 * site thought was taken, a process killed between the charge and the store, pending payments
 * that resolve while the visitor is away, stock held by orders that never paid, and a visitor's
 * key made of pattern characters. Each case ends with the payments audit finding nothing.
 */
let conn: Connection;
/** Charges settle at the day's cut-off here; `tomorrow` is the same processor a day later (settled). */
let gateway: PaymentGateway;
let tomorrow: PaymentGateway;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
  gateway = createSandboxGateway({ db: conn.db });
  tomorrow = createSandboxGateway({ db: conn.db, now: () => new Date(Date.now() + 86_400_000) });
});
afterAll(async () => {
  await conn?.close();
});

const weekday = weekdays();
const audit = (g = gateway) => auditPayments(conn.db, { gateway: g });
const round = (g = gateway) => reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks, gateway: g });
const sandboxOf = (reference: string) =>
  rows<{ id: string; type: string; status: string; amount_cents: number }>(
    conn.db,
    `select id, type, status, amount_cents from sandbox_transactions where reference = '${reference}' order by created_at`,
  );

describe("money that survives a lying processor, a crash and a wandering visitor", () => {
  it("D. a charge the processor voided is money not taken: the pending booking is released and the visitor told nothing was charged", async () => {
    const b = await book(conn.db, weekday(3), { card: LOST, gateway });
    expect((await findBookingByToken(conn.db, b.token))?.paymentChecking).toBe(true);
    // Staff void the charge in the processor's dashboard before the reconciler asks.
    const [charge] = await sandboxOf(`L${b.paymentId}`);
    expect(await gateway.void(charge!.id, "dashboard")).toMatchObject({ status: "approved" });

    const events = await round();
    expect(events.map((e) => e.kind)).toEqual(["released"]);
    const page = await findBookingByToken(conn.db, b.token);
    expect(page?.status).toBe("cancelled");
    expect((await mailsTo(conn.db, b.email)).map((m) => m.subject)).toContain(
      RESOLVED_SUBJECTS.released(`booking ${b.reference}`),
    );
    expect((await ledgerOf(conn.db, b.id)).map((r) => [r.kind, r.state])).toEqual([["charge", "declined"]]);
    expect(page?.paidLine).not.toContain("$129.95");
    expect(await audit()).toEqual([]);
  });

  it("E. a re-post keeps the first charge's amount: the same render sent again for a Sunday after its weekday charge is refused, and the charge given back", async () => {
    const key = crypto.randomUUID();
    const tuesday = weekday(2);
    // The first post charged $129.95 for a Tuesday morning, and its process was killed before the store.
    const first = await chargeOnce(
      conn.db,
      {
        purpose: "service",
        idempotencyKey: paymentKey(residentialServiceForm.id, key),
        amountCents: 129_95,
        priced: { serviceDate: tuesday, serviceTime: MORNING },
        card: CARD,
        description: `Residential service ${tuesday} ${MORNING}`,
      },
      { gateway },
    );
    expect(first.status).toBe("approved");
    const email = `repost-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const sunday = addDays(tuesday, 5);
    const again = await postBooking(conn.db, sunday, { key, gateway, email });
    expect(again).toMatchObject({ ok: false, status: 409, message: PRICED_KEY_MESSAGE });
    expect(await rows(conn.db, `select id from service_requests where email = '${email}'`)).toEqual([]);

    // The same render as it was first sent is still answered (nothing charged twice).
    const same = await postBooking(conn.db, tuesday, { key, gateway, email });
    expect(same.ok).toBe(true);
    const [stored] = await rows<{ total_cents: number; service_date: string }>(
      conn.db,
      `select total_cents, service_date from service_requests where email = '${email}'`,
    );
    expect(stored).toEqual({ total_cents: 129_95, service_date: tuesday });
    expect(await rows(conn.db, `select id from payments where idempotency_key like '%${key}'`)).toHaveLength(1);
    expect(await audit()).toEqual([]);
  });

  it("F. the visitor is told: pending bookings, orders and invoices get a mail when the reconciler confirms or releases them", async () => {
    const confirmed = await book(conn.db, weekday(4), { card: LOST, gateway });
    const released = await book(conn.db, weekday(4), { card: UNREACHED, gateway });
    const product = await stockedProduct(conn.db, 10);
    const bought = await order(conn.db, product.id, LOST, "249.00", gateway);
    const invoice = await payInvoice(conn.db, UNREACHED, gateway);

    const events = await round();
    expect(events.map((e) => e.kind).sort()).toEqual(["confirmed", "confirmed", "released", "released"]);
    const subjects = async (to: string) => (await mailsTo(conn.db, to)).map((m) => m.subject);
    expect(await subjects(confirmed.email)).toContain(RESOLVED_SUBJECTS.confirmed(`booking ${confirmed.reference}`));
    expect(await subjects(released.email)).toContain(RESOLVED_SUBJECTS.released(`booking ${released.reference}`));
    expect(
      (await subjects(bought.email)).filter((s) => /^Your payment for order DO-\S+ is confirmed/.test(s)),
    ).toHaveLength(1);
    expect(
      (await subjects(invoice.email)).filter((s) => s.includes("did not go through: nothing was charged")),
    ).toEqual([RESOLVED_SUBJECTS.released("invoice INV-1001")]);
    const [mail] = (await mailsTo(conn.db, confirmed.email)).filter((m) => m.subject.includes("is confirmed"));
    expect(mail!.text).toContain("$129.95 charged to Visa ending in 0119.");
    // Told once: a second round writes nothing more.
    expect(await round()).toEqual([]);
    expect((await subjects(confirmed.email)).filter((s) => s.includes("is confirmed"))).toHaveLength(1);
    const untold = await rows(
      conn.db,
      `select id from payments where kind = 'charge' and reference_id is not null and resolved_at is not null and told_at is null`,
    );
    expect(untold).toEqual([]);
    expect(await audit()).toEqual([]);
  });

  it("G. a released order gives back its stock: three pending orders take 45 → 42, two released as never charged bring it to 44", async () => {
    const product = await stockedProduct(conn.db, 45, 10_000);
    await order(conn.db, product.id, LOST, "100.00", gateway);
    await order(conn.db, product.id, UNREACHED, "100.00", gateway);
    await order(conn.db, product.id, UNREACHED, "100.00", gateway);
    const stock = async () =>
      (await rows<{ stock: number }>(conn.db, `select stock from products where id = ${product.id}`))[0]!.stock;
    expect(await stock()).toBe(42);
    const events = await round();
    expect(events.map((e) => e.kind).sort()).toEqual(["confirmed", "released", "released"]);
    expect(await stock()).toBe(44);
    // Once: another round gives nothing back twice.
    await round();
    expect(await stock()).toBe(44);
    expect(await audit()).toEqual([]);
  });

  it("H. a visitor's key reaches no other booking's rows: a key of pattern characters moves only its own booking, and every visitor gets their mail once", async () => {
    // X: a Sunday ($199) moved to a weekday the same day it was paid: the $69.05 refund waits for
    // the charge to settle, in flight, its change not finished yet.
    const x = await book(conn.db, weekday(0), { gateway });
    let releaseX!: () => void;
    const held = new Promise<void>((resolve) => (releaseX = resolve));
    const slow: PaymentGateway = {
      ...gateway,
      lookup: async (id) => {
        await held;
        return gateway.lookup(id);
      },
    };
    const movingX = move(conn.db, x, { serviceDate: addDays(x.serviceDate, 2) }, slow);
    await expect.poll(async () => (await ledgerOf(conn.db, x.id)).filter((r) => r.kind !== "charge")).toHaveLength(1);

    // Y: a same-price move whose key is sixteen underscores (each a LIKE wildcard).
    const y = await book(conn.db, weekday(3), { gateway });
    const movedY = await move(
      conn.db,
      y,
      { serviceDate: addDays(y.serviceDate, 1), changeKey: "_".repeat(16) },
      gateway,
    );
    expect(movedY.ok).toBe(true);
    releaseX();
    expect((await movingX).ok).toBe(true);

    const moveMails = async (b: { email: string; reference: string }) =>
      (await mailsTo(conn.db, b.email)).filter((m) => /moved/i.test(m.subject));
    expect(await moveMails(x)).toHaveLength(1);
    expect(await moveMails(y)).toHaveLength(1);
    expect((await moveMails(x))[0]!.text).toContain("A refund of $69.05 to Visa ending in 4242, on its way");
    const xLedger = await ledgerOf(conn.db, x.id);
    expect(sum(xLedger, "refund", "requested")).toBe(69_05);
    expect(await audit()).toEqual([]);
    // The refund goes once the charge has settled: the processor's clock past the day's cut-off.
    await round(tomorrow);
    expect(sum(await ledgerOf(conn.db, x.id), "refund")).toBe(69_05);
    expect(await audit(tomorrow)).toEqual([]);
  });
});
