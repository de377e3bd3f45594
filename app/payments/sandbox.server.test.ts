import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { sandboxTransactions } from "@db/schema/sandbox";
import { resultRows } from "@db/result-rows";
import { env } from "~/lib/env.server";
import { createTestDatabase, usingServer } from "../../tests/support/db";
import { secretsIn } from "../../tests/integration/payments-support";
import { CARD_MESSAGES, checkCard, checkCardNumber } from "./card";
import {
  PAYMENT_MESSAGES,
  type CardInput,
  type ChargeRequest,
  type PaymentGateway,
  type ProcessorTransaction,
} from "./gateway";
import {
  createSandboxGateway,
  decideReview,
  DUPLICATE_WINDOW_MS,
  nextDetroitMidnight,
  SANDBOX_CARDS,
  SANDBOX_MESSAGES,
  settleImmediately,
  settlementBatchId,
} from "./sandbox.server";

/**
 * The sandbox processor on a real database: the card checks every charge passes first, the test
 * cards (approved, declined, answer lost, never reached, held for review), settlement in batches at the day's cut-off
 * (void before, refund after) with Authorize.net's statuses, the reporting lists and findByReference
 * over them, the duplicate window, refunds capped at what is left (two at once included), writes
 * bounded by the processing limit, the look-ups, and two gateway objects sharing one database as
 * two site instances share the processor.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

// 15 April 2026, 12:00 in Detroit (EDT, UTC−4): the day's cut-off is 16 April 00:00 EDT = 04:00 UTC.
const NOON = new Date("2026-04-15T16:00:00Z");
const CUTOFF = new Date("2026-04-16T04:00:00Z");
/** A minute after `at`. */
const AFTER = (at: Date) => new Date(at.getTime() + 60_000);
const AFTER_CUTOFF = AFTER(CUTOFF);

/** A processor whose clock the test moves. */
function sandboxAt(start = NOON) {
  const clock = { now: start };
  const gateway = createSandboxGateway({ db: conn.db, now: () => clock.now });
  return { gateway, clock };
}

const card = (over: Partial<CardInput> = {}): CardInput => ({
  number: "4242 4242 4242 4242",
  expMonth: "04",
  expYear: "30",
  cvc: "123",
  holder: "Ada Lovelace",
  ...over,
});
let references = 0;
const charge = (over: Partial<CardInput> = {}, amountCents = 25050): ChargeRequest => ({
  amountCents,
  currency: "USD",
  idempotencyKey: crypto.randomUUID(),
  card: card(over),
  description: "Invoice 1001",
  reference: `L${++references}`,
});

const rowsOf = (id: string) => conn.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.id, id));
const byReference = (reference: string) =>
  conn.db
    .select()
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.reference, reference))
    .orderBy(asc(sandboxTransactions.createdAt));

const ids = (list: ProcessorTransaction[]) => list.map((t) => t.transactionId);
/** The transactions of `list` that are `wanted`, in the list's order. */
const only = (list: ProcessorTransaction[], wanted: string[]) => list.filter((t) => wanted.includes(t.transactionId));

/** An approved charge's id (the test fails here when it is not approved). */
async function approvedCharge(gateway: PaymentGateway, request = charge()): Promise<string> {
  const result = await gateway.charge(request);
  if (result.status !== "approved") throw new Error(`expected an approval, got ${JSON.stringify(result)}`);
  return result.transactionId;
}

describe("charges and the test cards", () => {
  it("4242 4242 4242 4242 approves: a random sbx_ id, brand and last four; the processor's row holds no card", async () => {
    const { gateway } = sandboxAt();
    const request = charge();
    const result = await gateway.charge(request);
    expect(result).toEqual({
      status: "approved",
      transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
      brand: "Visa",
      last4: "4242",
    });
    const id = (result as { transactionId: string }).transactionId;
    const [row] = await rowsOf(id);
    expect(row).toMatchObject({
      type: "charge",
      status: "approved",
      reference: request.reference,
      parentId: null,
      amountCents: 25050,
      createdAt: NOON,
      settlesAt: CUTOFF,
      brand: "Visa",
      last4: "4242",
    });
    expect(secretsIn(JSON.stringify(row))).toEqual([]);
    expect(JSON.stringify(row)).not.toContain('"123"');
  });

  it("4000 0000 0000 0002 is declined with 'Your card was declined.' and kept as a declined charge", async () => {
    const { gateway } = sandboxAt();
    const request = charge({ number: "4000 0000 0000 0002" });
    expect(await gateway.charge(request)).toEqual({
      status: "declined",
      reason: "card",
      message: "Your card was declined.",
    });
    const rows = await byReference(request.reference);
    expect(rows).toEqual([
      expect.objectContaining({
        type: "charge",
        status: "declined",
        amountCents: 25050,
        settlesAt: null,
        last4: "0002",
      }),
    ]);
    expect(await gateway.findByReference(request.reference, NOON)).toMatchObject({
      status: "found",
      transaction: { type: "charge", status: "declined", processorStatus: "declined", settled: false },
    });
  });

  it("4000 0000 0000 0119: charged, the answer lost (unknown, no id); findByReference finds the charge", async () => {
    const { gateway } = sandboxAt();
    expect(SANDBOX_CARDS.lost).toBe("4000000000000119");
    const request = charge({ number: "4000 0000 0000 0119" });
    expect(await gateway.charge(request)).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
    const found = await gateway.findByReference(request.reference, NOON);
    expect(found).toEqual({
      status: "found",
      transaction: {
        transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
        type: "charge",
        status: "approved",
        processorStatus: "capturedPendingSettlement",
        settled: false,
        amountCents: 25050,
        reference: request.reference,
        brand: "Visa",
        last4: "0119",
      },
    });
    // It is a real charge: it can be voided the same day.
    const id = (found as { transaction: { transactionId: string } }).transaction.transactionId;
    expect(await gateway.void(id, "L-void-lost")).toMatchObject({ status: "approved" });
  });

  it("4000 0000 0000 0127: never reached (unknown); the processor has no record of it", async () => {
    const { gateway } = sandboxAt();
    const request = charge({ number: SANDBOX_CARDS.unreached });
    expect(await gateway.charge(request)).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
    expect(await gateway.findByReference(request.reference, NOON)).toEqual({ status: "missing" });
    expect(await byReference(request.reference)).toEqual([]);
  });

  it("other valid numbers approve, with their brand", async () => {
    const { gateway } = sandboxAt();
    expect(await gateway.charge(charge({ number: "5555-5555-5555-4444" }))).toMatchObject({
      status: "approved",
      brand: "Mastercard",
      last4: "4444",
    });
    expect(await gateway.charge(charge({ number: "3782 822463 10005", cvc: "1234" }))).toMatchObject({
      status: "approved",
      brand: "American Express",
      last4: "0005",
    });
    expect(await gateway.charge(charge({ number: "6011111111111117" }))).toMatchObject({
      status: "approved",
      brand: "Discover",
    });
  });

  it("an invalid Luhn number, an unknown brand, letters: refused before anything is recorded", async () => {
    const { gateway } = sandboxAt();
    for (const number of ["4242 4242 4242 4241", "1234 5678 1234 5670", "4242 4242 4242 424x", "4242", ""]) {
      const request = charge({ number });
      expect(await gateway.charge(request), number).toEqual({
        status: "declined",
        reason: "invalid",
        message: CARD_MESSAGES.number,
      });
      expect(await byReference(request.reference)).toEqual([]);
    }
  });

  it("expired: good through the last day of its month in Detroit, not in UTC", async () => {
    const { gateway } = sandboxAt();
    const april = card({ expMonth: "4", expYear: "2026" });
    // 30 April 2026, 23:30 in Detroit = 1 May, 03:30 UTC: still good.
    expect(checkCard(april, new Date("2026-05-01T03:30:00Z"))).toMatchObject({ ok: true });
    // 1 May, 00:30 in Detroit: expired.
    expect(checkCard(april, new Date("2026-05-01T04:30:00Z"))).toMatchObject({
      ok: false,
      errors: { expiry: CARD_MESSAGES.expired },
    });
    expect(await gateway.charge(charge({ expMonth: "03", expYear: "26" }))).toEqual({
      status: "declined",
      reason: "invalid",
      message: CARD_MESSAGES.expired,
    });
  });

  it("an expiry that is not a month and a year, or beyond any card's life", async () => {
    const { gateway } = sandboxAt();
    for (const [expMonth, expYear] of [
      ["13", "30"],
      ["0", "30"],
      ["ab", "30"],
      ["04", "3"],
      ["04", "20300"],
      ["04", "2099"],
    ]) {
      expect(
        await gateway.charge(charge({ expMonth: expMonth!, expYear: expYear! })),
        `${expMonth}/${expYear}`,
      ).toMatchObject({ status: "declined", reason: "invalid", message: CARD_MESSAGES.expiry });
    }
  });

  it("a bad CVC: not digits, too short, too long, or not the brand's length", async () => {
    const { gateway } = sandboxAt();
    for (const cvc of ["12", "12a", "12345", "", "1234"]) {
      expect(await gateway.charge(charge({ cvc })), cvc).toEqual({
        status: "declined",
        reason: "invalid",
        message: CARD_MESSAGES.cvc,
      });
    }
    // American Express takes four digits, not three.
    expect(await gateway.charge(charge({ number: "378282246310005", cvc: "123" }))).toMatchObject({
      message: CARD_MESSAGES.cvc,
    });
  });

  it("every failing field is named (the form shows them all)", () => {
    expect(
      checkCard(card({ number: "4242424242424241", expMonth: "1", expYear: "2020", cvc: "1", holder: " " }), NOON),
    ).toEqual({
      ok: false,
      errors: {
        number: CARD_MESSAGES.number,
        expiry: CARD_MESSAGES.expired,
        cvc: CARD_MESSAGES.cvc,
        holder: CARD_MESSAGES.holder,
      },
      brand: "Visa",
    });
  });

  it("amounts are whole cents", async () => {
    const { gateway } = sandboxAt();
    await expect(gateway.charge({ ...charge(), amountCents: 250.5 })).rejects.toThrow(RangeError);
    await expect(gateway.charge({ ...charge(), amountCents: 0 })).rejects.toThrow(RangeError);
    await expect(gateway.refund("sbx_x", 1.5, "4242", "L-r")).rejects.toThrow(RangeError);
  });
});

describe("settlement: void before the cut-off, refund after", () => {
  it("the cut-off is the next midnight in Detroit, in EDT and EST, and on the nights the clocks move", () => {
    expect(nextDetroitMidnight(NOON)).toEqual(CUTOFF);
    // 23:59 in Detroit settles a minute later; 00:00 the next night.
    expect(nextDetroitMidnight(new Date("2026-04-16T03:59:00Z"))).toEqual(CUTOFF);
    expect(nextDetroitMidnight(CUTOFF)).toEqual(new Date("2026-04-17T04:00:00Z"));
    // EST (UTC−5) in January.
    expect(nextDetroitMidnight(new Date("2026-01-10T17:00:00Z"))).toEqual(new Date("2026-01-11T05:00:00Z"));
    // 8 March 2026, clocks forward at 2 AM: that day's charges settle at midnight EDT.
    expect(nextDetroitMidnight(new Date("2026-03-08T15:00:00Z"))).toEqual(new Date("2026-03-09T04:00:00Z"));
    // 1 November 2026, clocks back at 2 AM: midnight EST.
    expect(nextDetroitMidnight(new Date("2026-11-01T15:00:00Z"))).toEqual(new Date("2026-11-02T05:00:00Z"));
  });

  it("a void before the cut-off: its own transaction, the charge voided; a second void and a refund refused", async () => {
    const { gateway } = sandboxAt();
    const id = await approvedCharge(gateway);
    const voided = await gateway.void(id, "L-void-1");
    expect(voided).toEqual({ status: "approved", transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/) });
    const voidId = (voided as { transactionId: string }).transactionId;
    expect(voidId).not.toBe(id);
    expect(await gateway.lookup(id)).toMatchObject({
      status: "found",
      transaction: { status: "voided", processorStatus: "voided", settled: false },
    });
    expect(await gateway.lookup(voidId)).toEqual({
      status: "found",
      transaction: {
        transactionId: voidId,
        type: "void",
        status: "approved",
        processorStatus: "voided",
        settled: false,
        amountCents: 25050,
        reference: "L-void-1",
        parentTransactionId: id,
        brand: "Visa",
        last4: "4242",
      },
    });
    expect(await gateway.void(id, "L-void-2")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.alreadyVoided,
    });
    expect(await gateway.findByReference("L-void-2", NOON)).toEqual({ status: "missing" });
  });

  it("after the cut-off a void is refused ('The transaction has settled: refund it instead.')", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    clock.now = AFTER_CUTOFF;
    expect(await gateway.void(id, "L-late-void")).toEqual({
      status: "declined",
      message: "The transaction has settled: refund it instead.",
    });
    expect(await gateway.lookup(id)).toMatchObject({
      status: "found",
      transaction: {
        status: "approved",
        processorStatus: "settledSuccessfully",
        settled: true,
        batchId: settlementBatchId(CUTOFF),
      },
    });
  });

  it("a refund before the cut-off is refused; after it, accepted as its own transaction that settles at the next", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    expect(await gateway.refund(id, 25050, "4242", "L-early-refund")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.notSettled,
    });
    clock.now = AFTER_CUTOFF;
    const refunded = await gateway.refund(id, 10000, "4242", "L-refund-1");
    expect(refunded).toEqual({ status: "approved", transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/) });
    const refundId = (refunded as { transactionId: string }).transactionId;
    const found = {
      transactionId: refundId,
      type: "refund",
      status: "approved",
      processorStatus: "refundPendingSettlement",
      settled: false,
      amountCents: 10000,
      reference: "L-refund-1",
      parentTransactionId: id,
      brand: "Visa",
      last4: "4242",
    };
    expect(await gateway.lookup(refundId)).toEqual({ status: "found", transaction: found });
    expect(await gateway.findByReference("L-refund-1", NOON)).toEqual({ status: "found", transaction: found });
    const NEXT_CUTOFF = new Date("2026-04-17T04:00:00Z");
    clock.now = NEXT_CUTOFF;
    expect(await gateway.lookup(refundId)).toEqual({
      status: "found",
      transaction: {
        ...found,
        processorStatus: "refundSettledSuccessfully",
        settled: true,
        batchId: settlementBatchId(NEXT_CUTOFF),
      },
    });
    // The charge itself stays approved (partly refunded).
    expect(await gateway.lookup(id)).toMatchObject({ transaction: { status: "approved", amountCents: 25050 } });
  });

  it("settlesAt replaces the rule: settling at once, a refund works at once and a void never", async () => {
    const clock = { now: NOON };
    const immediate = createSandboxGateway({ db: conn.db, now: () => clock.now, settlesAt: settleImmediately });
    const id = await approvedCharge(immediate);
    expect(await immediate.lookup(id)).toMatchObject({ transaction: { settled: true } });
    expect(await immediate.void(id, "L-imm-void")).toEqual({ status: "declined", message: SANDBOX_MESSAGES.settled });
    expect(await immediate.refund(id, 25050, "4242", "L-imm-refund")).toMatchObject({ status: "approved" });
  });
});

describe("batches and the reporting lists, as Authorize.net's", () => {
  // 10 June 2026, noon in Detroit (EDT): a day of its own; its batch settles at 11 June 00:00 EDT.
  const JUNE_NOON = new Date("2026-06-10T16:00:00Z");
  const JUNE_CUTOFF = new Date("2026-06-11T04:00:00Z");
  const NEXT_JUNE_CUTOFF = new Date("2026-06-12T04:00:00Z");

  it("the day's transactions are unsettled until its cut-off, then in one batch named by it, with Authorize.net's statuses", async () => {
    const { gateway, clock } = sandboxAt(JUNE_NOON);
    // A second apart: the lists are in the order they were made.
    const tick = () => (clock.now = new Date(clock.now.getTime() + 1_000));
    const approved = await approvedCharge(gateway);
    tick();
    const declinedRequest = charge({ number: SANDBOX_CARDS.decline });
    await gateway.charge(declinedRequest);
    const [declinedRow] = await byReference(declinedRequest.reference);
    const declined = declinedRow!.id;
    tick();
    const voided = await approvedCharge(gateway);
    tick();
    const voidId = ((await gateway.void(voided, "L-june-void")) as { transactionId: string }).transactionId;
    tick();
    const refunded = await approvedCharge(gateway);
    const day = [approved, declined, voided, voidId, refunded];

    const before = only(await gateway.unsettledTransactions(), day);
    expect(before.map((t) => [t.transactionId, t.type, t.status, t.processorStatus, t.settled, t.batchId])).toEqual([
      [approved, "charge", "approved", "capturedPendingSettlement", false, undefined],
      [declined, "charge", "declined", "declined", false, undefined],
      [voided, "charge", "voided", "voided", false, undefined],
      [voidId, "void", "approved", "voided", false, undefined],
      [refunded, "charge", "approved", "capturedPendingSettlement", false, undefined],
    ]);
    const batchId = settlementBatchId(JUNE_CUTOFF);
    expect(batchId).toBe("1781150400");
    expect(await gateway.settledBatches(JUNE_NOON, NEXT_JUNE_CUTOFF)).toEqual([]);
    expect(await gateway.batchTransactions(batchId)).toEqual([]);

    clock.now = AFTER(JUNE_CUTOFF);
    expect(only(await gateway.unsettledTransactions(), day)).toEqual([]);
    expect(await gateway.settledBatches(JUNE_NOON, NEXT_JUNE_CUTOFF)).toEqual([
      { batchId, settlementTime: JUNE_CUTOFF },
    ]);
    // The window is of settlement times: a batch settled outside it is not listed.
    expect(await gateway.settledBatches(AFTER(JUNE_CUTOFF), NEXT_JUNE_CUTOFF)).toEqual([]);
    expect(await gateway.settledBatches(JUNE_NOON, new Date(JUNE_CUTOFF.getTime() - 1))).toEqual([]);
    const batch = await gateway.batchTransactions(batchId);
    expect(ids(batch)).toEqual(day);
    expect(batch.map((t) => [t.processorStatus, t.settled, t.batchId])).toEqual([
      ["settledSuccessfully", true, batchId],
      ["declined", false, batchId],
      ["voided", false, batchId],
      ["voided", false, batchId],
      ["settledSuccessfully", true, batchId],
    ]);
    for (const id of day)
      expect(await gateway.lookup(id)).toEqual({
        status: "found",
        transaction: batch.find((t) => t.transactionId === id),
      });

    // A refund made after the cut-off is tomorrow's: unsettled, then in the next batch.
    const refund = (await gateway.refund(refunded, 5000, "4242", "L-june-refund")) as { transactionId: string };
    expect(only(await gateway.unsettledTransactions(), [refund.transactionId])).toMatchObject([
      { type: "refund", status: "approved", processorStatus: "refundPendingSettlement", settled: false },
    ]);
    clock.now = NEXT_JUNE_CUTOFF;
    expect(await gateway.settledBatches(JUNE_NOON, NEXT_JUNE_CUTOFF)).toEqual([
      { batchId, settlementTime: JUNE_CUTOFF },
      { batchId: settlementBatchId(NEXT_JUNE_CUTOFF), settlementTime: NEXT_JUNE_CUTOFF },
    ]);
    expect(await gateway.batchTransactions(settlementBatchId(NEXT_JUNE_CUTOFF))).toMatchObject([
      {
        transactionId: refund.transactionId,
        processorStatus: "refundSettledSuccessfully",
        settled: true,
        batchId: settlementBatchId(NEXT_JUNE_CUTOFF),
      },
    ]);
    expect(await gateway.batchTransactions("not-a-batch")).toEqual([]);
  });

  it("the unsettled list holds only what is in no batch yet", async () => {
    const { gateway } = sandboxAt(JUNE_NOON);
    const id = await approvedCharge(gateway);
    const unsettled = await gateway.unsettledTransactions();
    expect(ids(unsettled)).toContain(id);
    // The books hold April's settled transactions too: none is listed.
    for (const t of unsettled) {
      expect(t.settled, t.transactionId).toBe(false);
      expect(t.batchId, t.transactionId).toBeUndefined();
    }
  });

  it("findByReference: the unsettled list, then the batches settled since `since`; missing before it", async () => {
    const { gateway, clock } = sandboxAt(JUNE_NOON);
    const request = charge({ number: SANDBOX_CARDS.lost });
    await gateway.charge(request);
    const unsettled = await gateway.findByReference(request.reference, JUNE_NOON);
    expect(unsettled).toMatchObject({
      status: "found",
      transaction: { processorStatus: "capturedPendingSettlement", settled: false },
    });
    const id = (unsettled as { transaction: ProcessorTransaction }).transaction.transactionId;
    clock.now = AFTER(JUNE_CUTOFF);
    const settled = await gateway.findByReference(request.reference, JUNE_NOON);
    expect(settled).toEqual({
      status: "found",
      transaction: {
        ...(unsettled as { transaction: ProcessorTransaction }).transaction,
        processorStatus: "settledSuccessfully",
        settled: true,
        batchId: settlementBatchId(JUNE_CUTOFF),
      },
    });
    // The same transaction the batch's list gives.
    expect(only(await gateway.batchTransactions(settlementBatchId(JUNE_CUTOFF)), [id])).toEqual([
      (settled as { transaction: ProcessorTransaction }).transaction,
    ]);
    // Asked only about batches settled after its own: not found.
    expect(await gateway.findByReference(request.reference, AFTER(JUNE_CUTOFF))).toEqual({ status: "missing" });
  });

  it("findByReference: the unsettled match before a settled one, and the newest of each", async () => {
    const clock = { now: JUNE_NOON };
    const daily = createSandboxGateway({ db: conn.db, now: () => clock.now });
    const immediate = createSandboxGateway({ db: conn.db, now: () => clock.now, settlesAt: settleImmediately });
    const request = charge();
    const first = await approvedCharge(daily, request);
    clock.now = new Date(JUNE_NOON.getTime() + 5 * 60_000);
    const settledAtOnce = await approvedCharge(immediate, { ...request, idempotencyKey: crypto.randomUUID() });
    clock.now = new Date(JUNE_NOON.getTime() + 10 * 60_000);
    // The newer one settled at once: the older, unsettled one is found first.
    expect(await daily.findByReference(request.reference, JUNE_NOON)).toMatchObject({
      transaction: { transactionId: first, settled: false },
    });
    clock.now = AFTER(JUNE_CUTOFF);
    // Both settled: the newest.
    expect(await daily.findByReference(request.reference, JUNE_NOON)).toMatchObject({
      transaction: { transactionId: settledAtOnce, settled: true },
    });
  });
});

describe("refunds: what is left, the right card", () => {
  it("capped at the settled amount minus the refunds already approved", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    clock.now = AFTER_CUTOFF;
    expect(await gateway.refund(id, 25051, "4242", "L-cap-1")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.overCap,
    });
    expect(await gateway.refund(id, 20000, "4242", "L-cap-2")).toMatchObject({ status: "approved" });
    expect(await gateway.refund(id, 5051, "4242", "L-cap-3")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.overCap,
    });
    expect(await gateway.refund(id, 5050, "4242", "L-cap-4")).toMatchObject({ status: "approved" });
    expect(await gateway.refund(id, 1, "4242", "L-cap-5")).toMatchObject({ status: "declined" });
    expect(await gateway.refund(id, 0, "4242", "L-cap-6")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.amount,
    });
    const refunds = await conn.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.parentId, id));
    expect(refunds.map((r) => [r.reference, r.amountCents]).sort()).toEqual([
      ["L-cap-2", 20000],
      ["L-cap-4", 5050],
    ]);
  });

  it("two refunds of the remaining amount at once, from two instances: exactly one approved", async () => {
    const clock = { now: NOON };
    const a = createSandboxGateway({ db: conn.db, now: () => clock.now });
    const b = createSandboxGateway({ db: conn.db, now: () => clock.now });
    for (let round = 1; round <= 3; round++) {
      clock.now = NOON;
      const id = await approvedCharge(a);
      clock.now = AFTER_CUTOFF;
      expect(await a.refund(id, 5050, "4242", `L-race-${round}`)).toMatchObject({ status: "approved" });
      const results = await Promise.all([
        a.refund(id, 20000, "4242", `L-race-${round}-a`),
        b.refund(id, 20000, "4242", `L-race-${round}-b`),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["approved", "declined"]);
      expect(results.find((r) => r.status === "declined")).toEqual({
        status: "declined",
        message: SANDBOX_MESSAGES.overCap,
      });
      const refunds = await conn.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.parentId, id));
      expect(refunds.map((r) => r.amountCents).sort()).toEqual([20000, 5050]);
    }
  });

  it("the card's last four must be the charge's", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    clock.now = AFTER_CUTOFF;
    expect(await gateway.refund(id, 100, "1111", "L-last4")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.last4,
    });
    expect(await gateway.refund(id, 100, "42", "L-last4")).toMatchObject({ status: "declined" });
    expect(await gateway.findByReference("L-last4", NOON)).toEqual({ status: "missing" });
  });

  it("a refund of a voided charge, of a declined one, of a refund or of nothing is refused", async () => {
    const { gateway, clock } = sandboxAt();
    const voided = await approvedCharge(gateway);
    await gateway.void(voided, "L-v");
    const declined = charge({ number: SANDBOX_CARDS.decline });
    await gateway.charge(declined);
    const [declinedRow] = await byReference(declined.reference);
    const settled = await approvedCharge(gateway);
    clock.now = AFTER_CUTOFF;
    const refund = await gateway.refund(settled, 100, "4242", "L-r1");
    const refundId = (refund as { transactionId: string }).transactionId;
    expect(await gateway.refund(voided, 100, "4242", "L-x")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.voided,
    });
    expect(await gateway.refund(declinedRow!.id, 100, "0002", "L-x")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.notApproved,
    });
    expect(await gateway.refund(refundId, 100, "4242", "L-x")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.notCharge,
    });
    expect(await gateway.refund("sbx_000000000000000000000000", 100, "4242", "L-x")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.unknownTransaction,
    });
    expect(await gateway.void("60012345678", "L-x")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.unknownTransaction,
    });
    expect(await gateway.findByReference("L-x", NOON)).toEqual({ status: "missing" });
  });
});

describe("a charge held for review (4000 0000 0000 0101)", () => {
  const NEXT_CUTOFF = new Date("2026-04-17T04:00:00Z");

  /** A held charge's id: the caller is told `unknown`, with the id. */
  async function heldCharge(gateway: PaymentGateway, request = charge({ number: SANDBOX_CARDS.review })) {
    const result = await gateway.charge(request);
    expect(result).toEqual({
      status: "unknown",
      message: PAYMENT_MESSAGES.unknown,
      transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
    });
    return (result as { transactionId: string }).transactionId;
  }

  it("is FDSPendingReview: in no batch, neither voided nor refunded, found by reference past the cut-off", async () => {
    expect(checkCardNumber(SANDBOX_CARDS.review)).toMatchObject({ valid: true, brand: "Visa" });
    const { gateway, clock } = sandboxAt();
    const request = charge({ number: SANDBOX_CARDS.review });
    const id = await heldCharge(gateway, request);
    const held = {
      transactionId: id,
      type: "charge",
      status: "review",
      processorStatus: "FDSPendingReview",
      settled: false,
      amountCents: 25050,
      reference: request.reference,
      brand: "Visa",
      last4: "0101",
    };
    expect(await gateway.lookup(id)).toEqual({ status: "found", transaction: held });
    expect(await gateway.void(id, "L-held-void")).toEqual({ status: "declined", message: SANDBOX_MESSAGES.held });
    clock.now = AFTER_CUTOFF;
    // Still pending: the unsettled list holds it, no batch does.
    expect(await gateway.findByReference(request.reference, NOON)).toEqual({ status: "found", transaction: held });
    expect(ids(await gateway.unsettledTransactions())).toContain(id);
    expect(ids(await gateway.batchTransactions(settlementBatchId(CUTOFF)))).not.toContain(id);
    expect(await gateway.refund(id, 100, "0101", "L-held-refund")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.held,
    });
  });

  it("approved: captured, then settled at the cut-off after the decision, refundable like any charge", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await heldCharge(gateway);
    clock.now = AFTER_CUTOFF;
    await decideReview(conn.db, id, "approve", { now: clock.now });
    expect(await gateway.lookup(id)).toMatchObject({
      transaction: { status: "approved", processorStatus: "capturedPendingSettlement", settled: false },
    });
    expect(await gateway.refund(id, 100, "0101", "L-approved-early")).toMatchObject({ status: "declined" });
    clock.now = NEXT_CUTOFF;
    expect(await gateway.lookup(id)).toMatchObject({
      transaction: {
        status: "approved",
        processorStatus: "settledSuccessfully",
        settled: true,
        batchId: settlementBatchId(NEXT_CUTOFF),
      },
    });
    expect(await gateway.refund(id, 25050, "0101", "L-approved-refund")).toMatchObject({ status: "approved" });
  });

  it("approved the same day: voidable before the cut-off", async () => {
    const { gateway } = sandboxAt();
    const id = await heldCharge(gateway);
    await decideReview(conn.db, id, "approve", { now: NOON });
    expect(await gateway.void(id, "L-approved-void")).toMatchObject({ status: "approved" });
    expect(await gateway.lookup(id)).toMatchObject({ transaction: { status: "voided", processorStatus: "voided" } });
  });

  it("declined: nothing moved, in the batch of the decision's cut-off; a second decision throws", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await heldCharge(gateway);
    clock.now = AFTER_CUTOFF;
    await decideReview(conn.db, id, "decline", { now: clock.now });
    expect(await gateway.lookup(id)).toMatchObject({
      transaction: { status: "declined", processorStatus: "declined", settled: false },
    });
    expect(await gateway.void(id, "L-declined-void")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.notApproved,
    });
    clock.now = NEXT_CUTOFF;
    expect(only(await gateway.batchTransactions(settlementBatchId(NEXT_CUTOFF)), [id])).toMatchObject([
      { processorStatus: "declined", settled: false, batchId: settlementBatchId(NEXT_CUTOFF) },
    ]);
    await expect(decideReview(conn.db, id, "approve")).rejects.toThrow(/not held for review/);
    await expect(decideReview(conn.db, "sbx_ffffffffffffffffffffffff", "decline")).rejects.toThrow();
  });
});

describe("the duplicate window: the same amount, card and reference within 2 minutes", () => {
  const LATER = (ms: number) => new Date(NOON.getTime() + ms);

  it("a charge sent again within the window is refused as a duplicate, nothing recorded; after it, charged again", async () => {
    const { gateway, clock } = sandboxAt();
    expect(DUPLICATE_WINDOW_MS).toBe(120_000);
    const request = charge();
    const id = await approvedCharge(gateway, request);
    clock.now = LATER(DUPLICATE_WINDOW_MS - 1_000);
    const duplicate = {
      status: "declined",
      reason: "duplicate",
      message: "A duplicate transaction has been submitted.",
    };
    expect(await gateway.charge({ ...request, idempotencyKey: crypto.randomUUID() })).toEqual(duplicate);
    // The card typed with spaces or not is the same card.
    expect(await gateway.charge({ ...request, card: card({ number: "4242424242424242" }) })).toEqual(duplicate);
    expect((await byReference(request.reference)).map((r) => r.id)).toEqual([id]);
    // The earlier one stands: it is what a look-up finds.
    expect(await gateway.findByReference(request.reference, NOON)).toMatchObject({
      transaction: { transactionId: id },
    });
    clock.now = LATER(DUPLICATE_WINDOW_MS);
    const again = await approvedCharge(gateway, request);
    expect(again).not.toBe(id);
    expect(await byReference(request.reference)).toHaveLength(2);
  });

  it("not duplicates: another reference (two bookings at one price), another amount, another card", async () => {
    const { gateway } = sandboxAt();
    const request = charge();
    await approvedCharge(gateway, request);
    await approvedCharge(gateway, { ...request, reference: `${request.reference}-other` });
    await approvedCharge(gateway, { ...request, amountCents: request.amountCents + 1 });
    await approvedCharge(gateway, { ...request, card: card({ number: "4000056655665556" }) });
    expect(await byReference(request.reference)).toHaveLength(3);
  });

  it("a declined or answer-lost charge sent again is a duplicate too: the first one arrived", async () => {
    const { gateway } = sandboxAt();
    for (const number of [SANDBOX_CARDS.decline, SANDBOX_CARDS.lost]) {
      const request = charge({ number });
      await gateway.charge(request);
      expect(await gateway.charge(request), number).toMatchObject({ status: "declined", reason: "duplicate" });
      expect(await byReference(request.reference), number).toHaveLength(1);
    }
    // A charge that never reached the processor left nothing to be a duplicate of.
    const unreached = charge({ number: SANDBOX_CARDS.unreached });
    await gateway.charge(unreached);
    expect(await gateway.charge(unreached)).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
  });

  it("the same charge from two instances at once: one made, the other its duplicate", async () => {
    const a = createSandboxGateway({ db: conn.db, now: () => NOON });
    const b = createSandboxGateway({ db: conn.db, now: () => NOON });
    for (let round = 1; round <= 3; round++) {
      const request = charge();
      const results = await Promise.all([a.charge(request), b.charge(request)]);
      expect(results.map((r) => (r.status === "declined" ? r.reason : r.status)).sort()).toEqual([
        "approved",
        "duplicate",
      ]);
      expect(await byReference(request.reference)).toHaveLength(1);
    }
  });

  it("a void sent again within the window: declined with duplicate: true, one void; after it, already voided", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    expect(await gateway.void(id, "L-dup-void")).toMatchObject({ status: "approved" });
    clock.now = LATER(60_000);
    expect(await gateway.void(id, "L-dup-void")).toEqual({
      status: "declined",
      message: "A duplicate transaction has been submitted.",
      duplicate: true,
    });
    expect(await byReference("L-dup-void")).toHaveLength(1);
    clock.now = LATER(DUPLICATE_WINDOW_MS);
    expect(await gateway.void(id, "L-dup-void")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.alreadyVoided,
    });
  });

  it("a refund sent again within the window: duplicate: true, refunded once; another amount is another refund", async () => {
    const { gateway, clock } = sandboxAt();
    const id = await approvedCharge(gateway);
    clock.now = AFTER_CUTOFF;
    expect(await gateway.refund(id, 10000, "4242", "L-dup-refund")).toMatchObject({ status: "approved" });
    clock.now = AFTER(AFTER_CUTOFF);
    expect(await gateway.refund(id, 10000, "4242", "L-dup-refund")).toEqual({
      status: "declined",
      message: SANDBOX_MESSAGES.duplicate,
      duplicate: true,
    });
    expect(await gateway.refund(id, 5000, "4242", "L-dup-refund")).toMatchObject({ status: "approved" });
    const refunds = await conn.db.select().from(sandboxTransactions).where(eq(sandboxTransactions.parentId, id));
    expect(refunds.map((r) => r.amountCents).sort()).toEqual([10000, 5000]);
    // Past the window the same refund is made again: what is left allows it.
    clock.now = new Date(AFTER_CUTOFF.getTime() + DUPLICATE_WINDOW_MS);
    expect(await gateway.refund(id, 10000, "4242", "L-dup-refund")).toMatchObject({ status: "approved" });
  });
});

describe("the processing limit: a write is done in time or not at all", () => {
  const LIMIT_MS = 300;

  /**
   * Holds `LOCK TABLE sandbox_transactions IN SHARE MODE` until released: every write of the
   * sandbox waits behind it (on the server for the lock, on PGlite for its turn).
   */
  async function lockTable() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = conn.db.transaction(async (tx) => {
      await tx.execute(sql`lock table sandbox_transactions in share mode`);
      locked();
      await released;
    });
    await isLocked;
    return async () => {
      release();
      await holder;
    };
  }

  /** On the server: the lock requests waiting on the sandbox's table now (another connection asks). */
  const waiting = async () =>
    Number(
      resultRows<{ n: number | string }>(
        await conn.db.execute(sql`
          select count(*) as n from pg_locks l join pg_class c on c.oid = l.relation
          where c.relname = 'sandbox_transactions' and not l.granted
            and l.database = (select oid from pg_database where datname = current_database())`),
      )[0]!.n,
    );

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a charge, a void and a refund stalled behind a lock: unknown at the limit, nothing recorded", async () => {
    const clock = { now: NOON };
    const gateway = createSandboxGateway({ db: conn.db, now: () => clock.now, processingLimitMs: LIMIT_MS });
    const immediate = createSandboxGateway({
      db: conn.db,
      now: () => clock.now,
      settlesAt: settleImmediately,
      processingLimitMs: LIMIT_MS,
    });
    const toVoid = await approvedCharge(gateway);
    const toRefund = await approvedCharge(immediate);
    const request = charge();
    const release = await lockTable();
    let answers: Awaited<ReturnType<PaymentGateway["charge"] | PaymentGateway["void"]>>[];
    const started = Date.now();
    try {
      const sent = Promise.all([
        gateway.charge(request),
        gateway.void(toVoid, "L-stalled-void"),
        immediate.refund(toRefund, 100, "4242", "L-stalled-refund"),
      ]);
      if (usingServer()) {
        // The three wait for the lock in the server itself…
        await sleep(LIMIT_MS / 2);
        expect(await waiting()).toBe(3);
      }
      answers = await sent;
      // …answered at the limit while the lock is still held (released only below).
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 5);
      expect(elapsed).toBeLessThan(LIMIT_MS + 2_000);
      if (usingServer()) {
        // …and the server gives up the waits too (lock_timeout), not only this process.
        const deadline = Date.now() + 2_000;
        while ((await waiting()) > 0 && Date.now() < deadline) await sleep(20);
        expect(await waiting()).toBe(0);
      }
    } finally {
      await release();
    }
    expect(answers).toEqual([
      { status: "unknown", message: PAYMENT_MESSAGES.unknown },
      { status: "unknown", message: PAYMENT_MESSAGES.unknown },
      { status: "unknown", message: PAYMENT_MESSAGES.unknown },
    ]);
    // Once the lock is gone, nothing lands late: no charge, the charge not voided, no refund.
    await sleep(50);
    expect(await byReference(request.reference)).toEqual([]);
    expect(await byReference("L-stalled-void")).toEqual([]);
    expect(await byReference("L-stalled-refund")).toEqual([]);
    expect(await gateway.lookup(toVoid)).toMatchObject({ transaction: { status: "approved" } });
    // Never made, so sending it again is no duplicate: it is made now.
    expect(await gateway.charge(request)).toMatchObject({ status: "approved" });
    expect(await gateway.void(toVoid, "L-stalled-void")).toMatchObject({ status: "approved" });
  });

  it("a write that waits less than its limit goes through; the limit ends with its transaction", async () => {
    const gateway = createSandboxGateway({ db: conn.db, now: () => NOON, processingLimitMs: 5_000 });
    const request = charge();
    const release = await lockTable();
    const answer = gateway.charge(request);
    await sleep(200);
    await release();
    expect(await answer).toMatchObject({ status: "approved" });
    expect(await byReference(request.reference)).toHaveLength(1);
    const [settings] = resultRows<{ lock: string; statement: string }>(
      await conn.db.execute(
        sql`select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement`,
      ),
    );
    expect(settings).toEqual({ lock: "0", statement: "0" });
  });

  it("the limit is PAYMENT_TIMEOUT_MS unless given", async () => {
    const before = env().PAYMENT_TIMEOUT_MS;
    env().PAYMENT_TIMEOUT_MS = LIMIT_MS;
    try {
      const gateway = createSandboxGateway({ db: conn.db, now: () => NOON });
      const request = charge();
      const release = await lockTable();
      let answer;
      try {
        answer = await gateway.charge(request);
      } finally {
        await release();
      }
      expect(answer).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
      expect(await byReference(request.reference)).toEqual([]);
    } finally {
      env().PAYMENT_TIMEOUT_MS = before;
    }
  });
});

describe("one processor for every instance", () => {
  it("two gateway objects on one database see each other's transactions", async () => {
    const clock = { now: NOON };
    const a = createSandboxGateway({ db: conn.db, now: () => clock.now });
    const b = createSandboxGateway({ db: async () => conn.db, now: () => clock.now });
    const request = charge();
    const id = await approvedCharge(a, request);
    expect(await b.lookup(id)).toMatchObject({ status: "found", transaction: { transactionId: id, type: "charge" } });
    expect(await b.findByReference(request.reference, NOON)).toMatchObject({ transaction: { transactionId: id } });
    expect(await b.void(id, "L-shared-void")).toMatchObject({ status: "approved" });
    expect(await a.lookup(id)).toMatchObject({ transaction: { status: "voided" } });
    expect(await a.void(id, "L-shared-void-2")).toMatchObject({ status: "declined" });
  });

  it("lookup of an id it never made: missing", async () => {
    const { gateway } = sandboxAt();
    expect(await gateway.lookup("sbx_ffffffffffffffffffffffff")).toEqual({ status: "missing" });
  });

  it("its database out of reach: unknown answers, never a throw; the next call tries again", async () => {
    let opens = 0;
    const down = createSandboxGateway({
      db: () => {
        opens++;
        if (opens === 1) throw new Error("connect ECONNREFUSED");
        return conn.db;
      },
      now: () => NOON,
    });
    expect(await down.charge(charge())).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
    expect(await down.lookup("sbx_ffffffffffffffffffffffff")).toEqual({ status: "missing" });
    expect(opens).toBe(2);
    const never = createSandboxGateway({ db: () => Promise.reject(new Error("down")), now: () => NOON });
    expect(await never.lookup("x")).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
    expect(await never.findByReference("L1", NOON)).toMatchObject({ status: "unknown" });
    expect(await never.void("x", "L1")).toMatchObject({ status: "unknown" });
    expect(await never.refund("x", 100, "4242", "L1")).toMatchObject({ status: "unknown" });
  });
});
