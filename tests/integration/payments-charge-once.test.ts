import { sql } from "drizzle-orm";
import { delay } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Connection, Database } from "@db/client.server";
import { payments } from "@db/schema";
import { AUTHORIZENET_ENDPOINTS, createAuthorizeNetGateway } from "~/payments/authorizenet.server";
import type { CardInput, PaymentGateway } from "~/payments/gateway";
import { PAYMENT_MESSAGES } from "~/payments/gateway";
import { NothingToGiveBackError, requestGiveBack } from "~/payments/give-back.server";
import { chargeOnce, findPayment, linkPayment, type ChargeOnceInput } from "~/payments/payments.server";
import { undoCharge } from "~/payments/reconcile.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import {
  anetJson,
  answers,
  authorizeNetHandlers,
  captureLogs,
  never,
  secretsIn,
  type AnetMock,
} from "./payments-support";

/**
 * chargeOnce on the real database (PGlite, or the PostgreSQL server named by
 * DATABASE_URL): one ledger row per try, the processor asked at most once per
 * idempotency key while an attempt may have taken money, concurrent calls
 * included; a charge given back (voided before it settles, refunded after) as
 * a row of its own that the key's later calls see; the database's own
 * constraints; and no card number or CVC in a row or a log line.
 * Authorize.net is the msw stand-in (its calls counted); the sandbox is the
 * real one on the test's database, wrapped to count its charges.
 */
let conn: Connection;
let db: Database;
const mock: AnetMock = { requests: [], respond: (body) => anetJson(answers.approved(body)) };
const server = setupServer(...authorizeNetHandlers(mock));
const logs = captureLogs();

const authorizenet = createAuthorizeNetGateway({
  loginId: "login-id-test",
  transactionKey: "transaction-key-test",
  endpoint: AUTHORIZENET_ENDPOINTS.sandbox,
  timeoutMs: 300,
});

/** The real sandbox on the test's database, counting its charges (and optionally slow, to make calls overlap). */
function countedSandbox(slowMs = 0) {
  const inner = createSandboxGateway({ db });
  const calls = { charge: 0 };
  const gateway: PaymentGateway = {
    ...inner,
    async charge(request) {
      calls.charge++;
      if (slowMs) await delay(slowMs);
      return inner.charge(request);
    },
  };
  return { gateway, calls };
}

const VISA: CardInput = {
  number: "4242 4242 4242 4242",
  expMonth: "04",
  expYear: "30",
  cvc: "847",
  holder: "Ada Lovelace",
};
const DECLINED: CardInput = { ...VISA, number: "4000 0000 0000 0002" };
const AMEX: CardInput = {
  number: "3782 822463 10005",
  expMonth: "12",
  expYear: "2031",
  cvc: "7319",
  holder: "Ada Lovelace",
};
const ANET_VISA: CardInput = { ...VISA, number: "4111 1111 1111 1111" };

let keyCounter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${++keyCounter}`;
const input = (over: Partial<ChargeOnceInput> = {}): ChargeOnceInput => ({
  purpose: "service",
  amountCents: 199_00,
  idempotencyKey: newKey(),
  card: VISA,
  description: "Residential service, Sunday 2026-05-03, Morning",
  customer: { email: "ada@example.com", ip: "203.0.113.7" },
  ...over,
});

async function rowsFor(key: string) {
  return rows<typeof payments.$inferSelect & { updated_at: unknown }>(
    db,
    `select id, kind, state, amount_cents, processor, processor_transaction_id, brand, last4, message, updated_at from payments where idempotency_key = '${key}' order by id`,
  );
}

/** The voids and refunds acting on a charge, oldest first. */
const givenBack = (chargeId: number) =>
  rows<{ id: number; kind: string; state: string; amount_cents: number }>(
    db,
    `select id, kind, state, amount_cents from payments where parent_id = ${chargeId} order by id`,
  );

/** What each request to the Authorize.net stand-in was: a transaction's type, or a look-up. */
const anetCalls = () =>
  mock.requests.map((body) =>
    body.createTransactionRequest
      ? (body.createTransactionRequest.transactionRequest.transactionType as string)
      : Object.keys(body)[0],
  );

/**
 * The stand-in answering look-ups (getTransactionDetailsRequest) of a $250.50 charge in
 * `transactionStatus`, and approving every transaction.
 */
function anetWithCharge(transactionStatus: "capturedPendingSettlement" | "settledSuccessfully") {
  mock.respond = (body) => {
    const lookup = (body as unknown as { getTransactionDetailsRequest?: { transId: string } })
      .getTransactionDetailsRequest;
    if (!lookup) return anetJson(answers.approved(body));
    return anetJson({
      transaction: {
        transId: lookup.transId,
        transactionType: "authCaptureTransaction",
        transactionStatus,
        authAmount: 250.5,
        settleAmount: 250.5,
        payment: { creditCard: { cardNumber: "XXXX1111", expirationDate: "XXXX", cardType: "Visa" } },
      },
      messages: { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] },
    });
  };
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  conn = await createTestDatabase({ seed: false });
  db = conn.db;
});
afterEach(() => {
  mock.requests.length = 0;
  mock.respond = (body) => anetJson(answers.approved(body));
});
afterAll(async () => {
  server.close();
  logs.restore();
  await conn?.close();
});

describe("chargeOnce with the sandbox", () => {
  it("approved: the outcome and its row (transaction id, brand, last four, amount in cents)", async () => {
    const { gateway, calls } = countedSandbox();
    const charge = input();
    const outcome = await chargeOnce(db, charge, { gateway });
    expect(outcome).toEqual({
      paymentId: expect.any(Number),
      status: "approved",
      amountCents: 199_00,
      transactionId: expect.stringMatching(/^sbx_[0-9a-f]{24}$/),
      brand: "Visa",
      last4: "4242",
      repeated: false,
    });
    expect(calls.charge).toBe(1);
    const [row] = await rowsFor(charge.idempotencyKey);
    expect(row).toMatchObject({
      kind: "charge",
      state: "succeeded",
      amount_cents: 19900,
      processor: "sandbox",
      processor_transaction_id: outcome.transactionId,
      brand: "Visa",
      last4: "4242",
      message: null,
    });
    expect(row!.updated_at).not.toBeNull();
    // The processor's own books: the charge, carrying the ledger row's reference (what a lost answer is found by).
    expect(
      await rows(
        db,
        `select type, status, amount_cents, reference from sandbox_transactions where id = '${outcome.transactionId}'`,
      ),
    ).toEqual([{ type: "charge", status: "approved", amount_cents: 19900, reference: `L${outcome.paymentId}` }]);
  });

  it("the same key twice → one charge, the earlier outcome, one row", async () => {
    const { gateway, calls } = countedSandbox();
    const charge = input();
    const first = await chargeOnce(db, charge, { gateway });
    const second = await chargeOnce(db, charge, { gateway });
    expect(calls.charge).toBe(1);
    expect(second).toEqual({ ...first, repeated: true });
    expect(await rowsFor(charge.idempotencyKey)).toHaveLength(1);
  });

  it("declined, then paid with another card from the same form (same key): two rows, one charge; a third call repeats", async () => {
    const { gateway, calls } = countedSandbox();
    const key = newKey();
    const declined = await chargeOnce(db, input({ idempotencyKey: key, card: DECLINED }), { gateway });
    expect(declined).toMatchObject({
      status: "declined",
      message: "Your card was declined.",
      brand: "Visa",
      last4: "0002",
      repeated: false,
    });
    const paid = await chargeOnce(db, input({ idempotencyKey: key, card: AMEX }), { gateway });
    expect(paid).toMatchObject({ status: "approved", brand: "American Express", last4: "0005", repeated: false });
    const again = await chargeOnce(db, input({ idempotencyKey: key, card: AMEX }), { gateway });
    expect(again).toEqual({ ...paid, repeated: true });
    expect(calls.charge).toBe(2);
    expect((await rowsFor(key)).map((r) => r.state)).toEqual(["declined", "succeeded"]);
  });

  it("a card that fails the checks: a declined row with the field's message, nothing sent; nothing holds the key", async () => {
    const { gateway } = countedSandbox();
    const key = newKey();
    const bad = await chargeOnce(db, input({ idempotencyKey: key, card: { ...VISA, cvc: "12" } }), { gateway });
    expect(bad).toMatchObject({ status: "declined", message: "Enter the card's security code (CVC)." });
    expect(await rowsFor(key)).toMatchObject([{ kind: "charge", state: "declined", processor_transaction_id: null }]);
    expect(await chargeOnce(db, input({ idempotencyKey: key }), { gateway })).toMatchObject({ status: "approved" });
  });

  it("two concurrent calls with one key → one charge, the same approved payment for both", async () => {
    const { gateway, calls } = countedSandbox(200);
    const charge = input();
    const outcomes = await Promise.all([1, 2, 3].map(() => chargeOnce(db, charge, { gateway, pollMs: 20 })));
    expect(calls.charge).toBe(1);
    expect(new Set(outcomes.map((o) => o.paymentId)).size).toBe(1);
    expect(outcomes.every((o) => o.status === "approved")).toBe(true);
    expect(outcomes.filter((o) => !o.repeated)).toHaveLength(1);
    expect(await rowsFor(charge.idempotencyKey)).toHaveLength(1);
  });

  it("a call that waits for another's decline answers that decline (a double click), without a second attempt", async () => {
    const { gateway, calls } = countedSandbox(200);
    const charge = input({ card: DECLINED });
    const outcomes = await Promise.all([
      chargeOnce(db, charge, { gateway, pollMs: 20 }),
      chargeOnce(db, charge, { gateway, pollMs: 20 }),
    ]);
    expect(calls.charge).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(["declined", "declined"]);
    expect(await rowsFor(charge.idempotencyKey)).toHaveLength(1);
  });
});

describe("chargeOnce with Authorize.net (msw)", () => {
  const anet = (over: Partial<ChargeOnceInput> = {}) =>
    input({ purpose: "invoice", amountCents: 250_50, card: ANET_VISA, invoiceNumber: "1001", ...over });

  it("twice with one key → one call to the processor", async () => {
    const charge = anet();
    const first = await chargeOnce(db, charge, { gateway: authorizenet });
    const second = await chargeOnce(db, charge, { gateway: authorizenet });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]!.createTransactionRequest.transactionRequest.amount).toBe("250.50");
    expect(first).toMatchObject({
      status: "approved",
      transactionId: "60012345678",
      brand: "Visa",
      last4: "1111",
      amountCents: 250_50,
    });
    expect(second).toEqual({ ...first, repeated: true });
  });

  it("concurrent calls with one key → one call to the processor", async () => {
    mock.respond = async (body) => {
      await delay(150);
      return anetJson(answers.approved(body));
    };
    const charge = anet();
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map(() => chargeOnce(db, charge, { gateway: authorizenet, pollMs: 20 })),
    );
    expect(mock.requests).toHaveLength(1);
    expect(outcomes.map((o) => o.status)).toEqual(["approved", "approved", "approved", "approved"]);
    expect(new Set(outcomes.map((o) => o.paymentId)).size).toBe(1);
  });

  it("a decline: the row says declined with the processor's text", async () => {
    mock.respond = (body) => anetJson(answers.declined(body, "This transaction has been declined."));
    const charge = anet();
    expect(await chargeOnce(db, charge, { gateway: authorizenet })).toMatchObject({
      status: "declined",
      message: "This transaction has been declined.",
      last4: "1111",
    });
    expect(await rowsFor(charge.idempotencyKey)).toMatchObject([{ state: "declined", processor: "authorizenet" }]);
  });

  it("a timeout: pending (never paid), said so; a retry with the key does not call the processor again", async () => {
    mock.respond = never;
    const charge = anet();
    const first = await chargeOnce(db, charge, { gateway: authorizenet });
    expect(first).toMatchObject({ status: "pending", message: PAYMENT_MESSAGES.unknown, repeated: false });
    const [row] = await rowsFor(charge.idempotencyKey);
    expect(row).toMatchObject({ state: "unknown", processor_transaction_id: null, brand: "Visa", last4: "1111" });
    expect(row!.updated_at).not.toBeNull();

    mock.respond = (body) => anetJson(answers.approved(body));
    const retry = await chargeOnce(db, charge, { gateway: authorizenet });
    expect(retry).toMatchObject({ status: "pending", paymentId: first.paymentId, repeated: true });
    expect(mock.requests).toHaveLength(1);
  });

  it("a malformed answer: pending as well", async () => {
    mock.respond = () => anetJson({ unexpected: true });
    expect(await chargeOnce(db, anet(), { gateway: authorizenet })).toMatchObject({ status: "pending" });
  });

  it("a charge not settled yet is given back by a void; the key stays taken (voided), and nothing more can go back", async () => {
    anetWithCharge("capturedPendingSettlement");
    const charge = anet();
    const paid = await chargeOnce(db, charge, { gateway: authorizenet });
    const undone = await undoCharge(db, paid.paymentId, { gateway: authorizenet });
    expect(undone).toMatchObject({ kind: "undone", outcome: "voided" });
    // Asked how the charge stands (a look-up moves no money), then voided.
    expect(anetCalls()).toEqual(["authCaptureTransaction", "getTransactionDetailsRequest", "voidTransaction"]);
    expect(mock.requests[2]!.createTransactionRequest.transactionRequest).toMatchObject({
      transactionType: "voidTransaction",
      refTransId: "60012345678",
    });
    expect(await givenBack(paid.paymentId)).toMatchObject([{ kind: "void", state: "succeeded", amount_cents: 250_50 }]);
    expect(await findPayment(db, paid.paymentId)).toMatchObject({ status: "voided" });
    expect(await chargeOnce(db, charge, { gateway: authorizenet })).toMatchObject({ status: "voided", repeated: true });
    // Nothing is left to give back: the ledger refuses before anything reaches the processor.
    expect(await undoCharge(db, paid.paymentId, { gateway: authorizenet })).toBeUndefined();
    await expect(
      db.transaction((tx) =>
        requestGiveBack(tx, { reference: null, chargeId: paid.paymentId, cents: 100, intent: "undo", key: newKey() }),
      ),
    ).rejects.toThrow(NothingToGiveBackError);
    expect(mock.requests).toHaveLength(3);
    expect(await givenBack(paid.paymentId)).toHaveLength(1);
  });

  it("a settled charge is refunded: the whole amount, the last four, and the refund's own ledger reference", async () => {
    anetWithCharge("settledSuccessfully");
    const paid = await chargeOnce(db, anet(), { gateway: authorizenet });
    expect(await undoCharge(db, paid.paymentId, { gateway: authorizenet })).toMatchObject({ outcome: "refunded" });
    const [refund] = await givenBack(paid.paymentId);
    expect(refund).toMatchObject({ kind: "refund", state: "succeeded", amount_cents: 250_50 });
    expect(anetCalls()).toEqual(["authCaptureTransaction", "getTransactionDetailsRequest", "refundTransaction"]);
    expect(mock.requests[2]!.createTransactionRequest.transactionRequest).toMatchObject({
      transactionType: "refundTransaction",
      amount: "250.50",
      payment: { creditCard: { cardNumber: "1111", expirationDate: "XXXX" } },
      refTransId: "60012345678",
      order: { invoiceNumber: `L${refund!.id}` },
    });
    expect(await findPayment(db, paid.paymentId)).toMatchObject({ status: "refunded" });
  });
});

describe("pending attempts of other requests", () => {
  /** A charge requested (committed before its call) whose answer never came back. */
  async function insertPending(key: string, ageSeconds: number) {
    await db.execute(
      sql`insert into payments (amount_cents, purpose, kind, state, idempotency_key, processor, created_at)
          values (19900, 'service', 'charge', 'requested', ${key}, 'sandbox', now() - make_interval(secs => ${ageSeconds}))`,
    );
  }

  it("an unanswered attempt older than the wait (its process died mid-call): pending at once, nothing sent", async () => {
    const { gateway, calls } = countedSandbox();
    const key = newKey();
    await insertPending(key, 3600);
    const started = performance.now();
    expect(await chargeOnce(db, input({ idempotencyKey: key }), { gateway, waitMs: 25_000 })).toMatchObject({
      status: "pending",
      message: PAYMENT_MESSAGES.unknown,
      repeated: true,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(calls.charge).toBe(0);
  });

  it("a fresh attempt that never answers: waited for at most waitMs, then pending", async () => {
    const { gateway, calls } = countedSandbox();
    const key = newKey();
    await insertPending(key, 0);
    const started = performance.now();
    expect(await chargeOnce(db, input({ idempotencyKey: key }), { gateway, waitMs: 400, pollMs: 50 })).toMatchObject({
      status: "pending",
      repeated: true,
    });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(250);
    expect(waited).toBeLessThan(3_000);
    expect(calls.charge).toBe(0);
  });
});

describe("what chargeOnce refuses", () => {
  it("to run inside a transaction (a rollback would erase the record of a charge)", async () => {
    const { gateway, calls } = countedSandbox();
    const charge = input();
    await expect(db.transaction((tx) => chargeOnce(tx as unknown as Database, charge, { gateway }))).rejects.toThrow(
      /outside transactions/,
    );
    expect(calls.charge).toBe(0);
    expect(await rowsFor(charge.idempotencyKey)).toHaveLength(0);
  });

  it("a key reused for another purpose; amounts that are not whole positive cents", async () => {
    const { gateway } = countedSandbox();
    const charge = input();
    await chargeOnce(db, charge, { gateway });
    await expect(chargeOnce(db, { ...charge, purpose: "invoice" }, { gateway })).rejects.toThrow(/another purpose/);
    await expect(chargeOnce(db, input({ amountCents: 129.95 }), { gateway })).rejects.toThrow(RangeError);
    await expect(chargeOnce(db, input({ amountCents: 0 }), { gateway })).rejects.toThrow(RangeError);
  });

  it("linkPayment records what was paid for (inside the booking's transaction)", async () => {
    const { gateway } = countedSandbox();
    const paid = await chargeOnce(db, input(), { gateway });
    await db.transaction((tx) => linkPayment(tx, paid.paymentId, { kind: "booking", id: 42 }));
    const [row] = await rows(
      db,
      `select reference_table, reference_id, resolved_at is not null as resolved from payments where id = ${paid.paymentId}`,
    );
    expect(row).toEqual({ reference_table: "service_requests", reference_id: 42, resolved: true });
    expect(await findPayment(db, paid.paymentId)).toMatchObject({ status: "approved" });
  });
});

describe("the table's own rules", () => {
  const insert = (values: string) =>
    db.execute(
      sql.raw(
        `insert into payments (amount_cents, purpose, kind, state, idempotency_key, processor, processor_transaction_id, last4, parent_id) values ${values}`,
      ),
    );

  it("one live request per key; declined requests do not count", async () => {
    const key = newKey();
    await insert(
      `(100, 'order', 'charge', 'declined', '${key}', 'sandbox', null, null, null), (100, 'order', 'charge', 'declined', '${key}', 'sandbox', null, null, null)`,
    );
    await insert(`(100, 'order', 'charge', 'requested', '${key}', 'sandbox', null, null, null)`);
    await expect(
      insert(`(100, 'order', 'charge', 'requested', '${key}', 'sandbox', null, null, null)`),
    ).rejects.toThrow();
    await expect(
      insert(`(100, 'order', 'charge', 'unknown', '${key}', 'sandbox', null, null, null)`),
    ).rejects.toThrow();
    await expect(
      insert(`(100, 'order', 'charge', 'succeeded', '${key}', 'sandbox', 'sbx_1', '4242', null)`),
    ).rejects.toThrow();
  });

  it("no more than four digits of a card, no charge taken without a transaction id, positive cents, known values, voids and refunds of a charge", async () => {
    const [charge] = await rows<{ id: number }>(
      db,
      `insert into payments (amount_cents, purpose, kind, state, idempotency_key, processor, processor_transaction_id, last4)
        values (100, 'order', 'charge', 'succeeded', '${newKey()}', 'sandbox', 'sbx_2', '4242') returning id`,
    );
    const bad = [
      `(100, 'order', 'charge', 'succeeded', '${newKey()}', 'sandbox', 'sbx_1', '424242', null)`,
      `(100, 'order', 'charge', 'succeeded', '${newKey()}', 'sandbox', 'sbx_1', '42a2', null)`,
      `(100, 'order', 'charge', 'succeeded', '${newKey()}', 'sandbox', null, '4242', null)`,
      `(0, 'order', 'charge', 'requested', '${newKey()}', 'sandbox', null, null, null)`,
      `(100, 'gift', 'charge', 'requested', '${newKey()}', 'sandbox', null, null, null)`,
      `(100, 'order', 'charge', 'paid', '${newKey()}', 'sandbox', null, null, null)`,
      `(100, 'order', 'charge', 'requested', '${newKey()}', 'stripe', null, null, null)`,
      `(100, 'order', 'chargeback', 'requested', '${newKey()}', 'sandbox', null, null, null)`,
      // A void or a refund acts on a charge; a charge on nothing.
      `(100, 'order', 'void', 'requested', '${newKey()}', 'sandbox', null, null, null)`,
      `(100, 'order', 'refund', 'requested', '${newKey()}', 'sandbox', null, null, null)`,
      `(100, 'order', 'charge', 'requested', '${newKey()}', 'sandbox', null, null, ${charge!.id})`,
    ];
    for (const values of bad) await expect(insert(values), values).rejects.toThrow();
    // The same values, right: accepted.
    await insert(`(100, 'order', 'refund', 'requested', '${newKey()}', 'sandbox', null, null, ${charge!.id})`);
  });
});

describe("secrets", () => {
  it("no card number or CVC in any payments row, nor in any log call made by these tests", async () => {
    const stored = await rows<{ line: string }>(db, `select row_to_json(p)::text as line from payments p`);
    expect(stored.length).toBeGreaterThan(10);
    for (const { line } of stored) expect(secretsIn(line), line).toEqual([]);
    expect(logs.lines.length).toBeGreaterThan(10);
    for (const line of logs.lines) expect(secretsIn(line), line).toEqual([]);
  });
});
