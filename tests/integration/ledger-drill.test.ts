import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { categories, products } from "@db/schema";
import { BOOKING_BUSY } from "~/booking/change.server";
import { cancelBooking } from "~/booking/cancel.server";
import { findBookingByToken } from "~/booking/manage.server";
import { postMove, type MoveRequest } from "./move-support";
import { invoiceForm } from "~/forms/invoice/handle.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { addDays } from "~/booking/availability";
import { residentialServiceForm } from "~/booking/form/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import { env } from "~/lib/env.server";
import { paymentGateway } from "~/payments/gateway.server";
import { reconcile } from "~/payments/reconcile.server";
import { weekdayOf, type ServiceTime } from "~/booking/service-price";
import { addToCart, cartCookieHeader } from "~/shop/cart.server";
import { checkoutForm } from "~/shop/checkout/handle.server";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { auditPayments } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { formPost, honeypotFields, nextIp, rows, sumAnswer, toFormData } from "./forms-support";
import { checkoutFields, invoiceFields, residentialFields } from "./payments-support";

/**
 * Issue 36's drill, on the real database (PGlite, and PostgreSQL when DATABASE_URL is set) with the
 * sandbox processor keeping its own books: each case the issue reproduced on the landed site,
 * named after it, ends with the payments audit finding nothing.
 */
let conn: Connection;
let settlement: ReturnType<typeof env>["SANDBOX_SETTLEMENT"];
beforeAll(async () => {
  // Charges settle at once here, so a cheaper move's refund goes through (the cut-off's own rule
  // has its tests beside the sandbox); set before this database's sandbox is first made.
  settlement = env().SANDBOX_SETTLEMENT;
  env().SANDBOX_SETTLEMENT = "immediate";
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  env().SANDBOX_SETTLEMENT = settlement;
  await conn?.close();
});

const MORNING: ServiceTime = "Morning (8 AM to 11 AM)";
const CARD = { number: "4242 4242 4242 4242", expMonth: "04", expYear: "30", cvc: "847", holder: "Grace Hopper" };
const LOST = { ...CARD, number: "4000 0000 0000 0119" };

let weeks = 0;
function weekday(day: number, week = ++weeks): string {
  let date = addDays(todayInDetroit(), 7 * week);
  while (weekdayOf(date) !== day) date = addDays(date, 1);
  return /-(01-01|07-04|12-25)$/.test(date) ? weekday(day, ++weeks) : date;
}

async function book(serviceDate: string, serviceTime = MORNING) {
  const fields = residentialFields(serviceDate, {
    serviceTime,
    email: `drill-${crypto.randomUUID().slice(0, 8)}@example.com`,
  });
  const body = toFormData({ ...fields, ...honeypotFields(), ...sumAnswer(), submission_key: crypto.randomUUID() });
  const outcome = await runForm(residentialServiceForm as FormDefinition, formPost("/request-service", body), {
    db: conn.db,
    clientIp: nextIp(),
  });
  expect(outcome.ok).toBe(true);
  const token = /^\/booking\/([A-Za-z0-9_-]{43})\?booked$/.exec(outcome.redirectTo!)![1]!;
  const [row] = await rows<{ id: number; reference: string }>(
    conn.db,
    `select id, reference from service_requests where email = '${fields.email}'`,
  );
  return { token, serviceDate, serviceTime, ...row! };
}

const move = (b: { token: string; serviceDate: string; serviceTime: string }, to: Partial<MoveRequest>) =>
  postMove(conn.db, b.token, {
    serviceDate: "",
    serviceTime: MORNING,
    changeKey: crypto.randomUUID().replaceAll("-", ""),
    currentVisit: `${b.serviceDate}|${b.serviceTime}`,
    ...to,
  });

type Row = { id: number; kind: string; state: string; amount_cents: number; parent_id: number | null; intent: string };
const ledgerOf = (bookingId: number) =>
  rows<Row>(
    conn.db,
    `select id, kind, state, amount_cents, parent_id, intent from payments
      where reference_table = 'service_requests' and reference_id = ${bookingId} order by id`,
  );
const sum = (list: Row[], kind: string, state = "succeeded") =>
  list.filter((r) => r.kind === kind && r.state === state).reduce((total, r) => total + r.amount_cents, 0);
const audit = () => auditPayments(conn.db, { gateway: paymentGateway(conn.db) });
const companyMails = (like: string) =>
  rows<{ subject: string; text: string }>(
    conn.db,
    `select subject, text from outbox where subject like '${like}' order by id`,
  );

describe("issue 36: every cent accounted for", () => {
  it("one move refunded twice: 30 simultaneous cheaper moves of a $199 booking make one move and refund $69.05 once", async () => {
    const b = await book(weekday(0)); // a Sunday: $199.00
    expect((await ledgerOf(b.id)).map((r) => [r.kind, r.state, r.amount_cents])).toEqual([
      ["charge", "succeeded", 199_00],
    ]);
    // Each post from its own render of the form (the booking as it was: Sunday, $199), to a weekday of its own.
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => move(b, { serviceDate: addDays(b.serviceDate, 1 + (i % 5)) })),
    );
    const moved = outcomes.filter((o) => o.ok);
    expect(moved).toHaveLength(1);
    expect(moved[0]!.message).toContain("$69.05 refunded to Visa ending in 4242 (it shows within 5–10 business days).");
    for (const refused of outcomes.filter((o) => !o.ok)) expect(refused.status).toBe(409);
    const ledger = await ledgerOf(b.id);
    expect(sum(ledger, "refund")).toBe(69_05);
    expect(ledger.filter((r) => r.kind === "refund")).toHaveLength(1);
    expect((await findBookingByToken(conn.db, b.token))?.totalCents).toBe(129_95);
    expect(await audit()).toEqual([]);
  });

  it("moves and cancels interleaved: whatever wins, the card gets back exactly what the booking no longer costs", async () => {
    const b = await book(weekday(0));
    const posts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0 ? move(b, { serviceDate: addDays(b.serviceDate, 1 + (i % 5)) }) : cancelBooking(conn.db, b.token),
      ),
    );
    expect(posts.some((p) => p.ok)).toBe(true);
    const page = await findBookingByToken(conn.db, b.token);
    const ledger = await ledgerOf(b.id);
    const net = sum(ledger, "charge") - sum(ledger, "refund") - sum(ledger, "void");
    expect(page?.status).toBe("cancelled");
    expect(net).toBe(0);
    expect(sum(ledger, "refund") + sum(ledger, "void")).toBe(199_00);
    expect(await audit()).toEqual([]);
    // Sent again after all that: the same cancellation, nothing moves.
    expect(await cancelBooking(conn.db, b.token)).toMatchObject({ ok: true, status: 200 });
    expect(await ledgerOf(b.id)).toHaveLength(ledger.length);
  });

  it("a move whose payment outcome is unknown: refused again until resolved; after reconciliation exactly one difference charged", async () => {
    const b = await book(weekday(3)); // a weekday: $129.95
    const sunday = addDays(b.serviceDate, 4);
    const lost = await move(b, { serviceDate: sunday, card: LOST });
    expect(lost).toMatchObject({ ok: false, status: 202 });
    expect(lost.message).toContain("a charge of $69.05 to your card, not confirmed yet: we will e-mail you when it is");
    // A second render pays again: refused while the first is unknown, and nothing is sent.
    const again = await move(b, { serviceDate: sunday, card: CARD });
    expect(again).toMatchObject({ ok: false, status: 409, message: BOOKING_BUSY });
    expect((await ledgerOf(b.id)).filter((r) => r.kind === "charge")).toHaveLength(2);
    expect(await cancelBooking(conn.db, b.token)).toMatchObject({ ok: false, status: 409, message: BOOKING_BUSY });

    // The reconciler asks the processor: the lost answer was a charge; no move stands on it, so it goes
    // back (refunded: charges settle at once in this file).
    const events = await reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks });
    expect(events.map((e) => [e.kind, e.outcome])).toEqual([["undone", "refunded"]]);
    expect(await companyMails(`Payment #% refunded ($69.05)%`)).toHaveLength(1);
    // A second round finds nothing left to do, and mails nothing more.
    expect(await reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks })).toEqual([]);

    const paid = await move(b, { serviceDate: sunday, card: CARD });
    expect(paid.ok).toBe(true);
    expect(paid.message).toContain("$69.05 charged to Visa ending in 4242");
    const ledger = await ledgerOf(b.id);
    expect(sum(ledger, "charge") - sum(ledger, "void") - sum(ledger, "refund")).toBe(199_00);
    expect(await audit()).toEqual([]);
  });

  it("a visit moved dearer, then back, then cancelled: each charge is given back once, the card gets everything back", async () => {
    const b = await book(weekday(2)); // $129.95
    const sunday = addDays(b.serviceDate, 5);
    expect((await move(b, { serviceDate: sunday, card: CARD })).ok).toBe(true);
    const back = await move({ ...b, serviceDate: sunday }, { serviceDate: b.serviceDate });
    expect(back.ok).toBe(true);
    expect(back.message).toContain("$69.05 refunded to Visa ending in 4242");
    const cancelled = await cancelBooking(conn.db, b.token);
    expect(cancelled.message).toBe(
      "Your booking is cancelled. $129.95 refunded to Visa ending in 4242 (it shows within 5–10 business days).",
    );
    const ledger = await ledgerOf(b.id);
    expect(ledger.filter((r) => r.state === "succeeded").map((r) => [r.kind, r.amount_cents])).toEqual([
      ["charge", 129_95],
      ["charge", 69_05],
      ["refund", 69_05],
      ["refund", 129_95],
    ]);
    expect(await audit()).toEqual([]);
  });

  it("a checkout and an invoice paid with the lost-answer card: stored pending, confirmed by reconciliation, mailed once", async () => {
    const [category] = await conn.db.insert(categories).values({ name: "Drill" }).returning();
    const [item] = await conn.db
      .insert(products)
      .values({
        name: "Drill opener",
        priceCents: 24_900,
        image: "/images/test/x.svg",
        categoryId: category!.id,
        stock: 5,
      })
      .returning();
    const added = await addToCart(conn.db, null, { inventory_id: item!.id, selectedOptions: {} }, "198.51.100.77");
    if (!added.ok) throw new Error(added.message);
    const cookie = (await cartCookieHeader(added.cartId)).split(";")[0]!;
    const checkout = await runForm(
      checkoutForm,
      formPost(
        "/checkout",
        toFormData({
          ...checkoutFields({ cardNumber: LOST.number, total: "249.00" }),
          ...honeypotFields(),
          ...sumAnswer(),
          submission_key: crypto.randomUUID(),
        }),
        { Cookie: cookie },
      ),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(checkout.ok).toBe(true);
    const invoice = await runForm(
      invoiceForm as FormDefinition,
      formPost(
        "/pay-invoice",
        toFormData({
          ...invoiceFields({ cardNumber: LOST.number }),
          ...honeypotFields(),
          ...sumAnswer(),
          submission_key: crypto.randomUUID(),
        }),
      ),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(invoice.ok).toBe(true);
    const pendingNow = await rows<{ n: number }>(
      conn.db,
      `select (select count(*) from orders where status = 'pending') + (select count(*) from invoice_payments where status = 'pending') as n`,
    );
    expect(Number(pendingNow[0]!.n)).toBe(2);

    const events = await reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks });
    expect(events.map((e) => e.kind).sort()).toEqual(["confirmed", "confirmed"]);
    const paidNow = await rows<{ n: number }>(
      conn.db,
      `select (select count(*) from orders where status = 'paid' and total_cents = 24900) + (select count(*) from invoice_payments where status = 'paid') as n`,
    );
    expect(Number(paidNow[0]!.n)).toBeGreaterThanOrEqual(2);
    expect(await companyMails(`Payment #% confirmed%`)).toHaveLength(2);
    expect(await reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks })).toEqual([]);
    expect(await companyMails(`Payment #% confirmed%`)).toHaveLength(2);
    expect(await audit()).toEqual([]);
  });
});
