import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "@db/client.server";
import { findBookingByToken } from "~/booking/manage.server";
import { RESOLVED_SUBJECTS } from "~/mail/payment-resolved.server";
import { AUTHORIZENET_ENDPOINTS, createAuthorizeNetGateway } from "~/payments/authorizenet.server";
import type { PaymentGateway } from "~/payments/gateway";
import { reconcile } from "~/payments/reconcile.server";
import { createSandboxGateway } from "~/payments/sandbox.server";
import { reconcileHooks as ledgerHooks } from "../../server/ledger";
import { createTestDatabase } from "../support/db";
import { rows } from "./forms-support";
import { book, LOST, mailsTo, weekdays } from "./ledger-support";
import { anetJson, authorizeNetHandlers, never, type AnetMock } from "./payments-support";

/**
 * A charge whose answer was lost, looked up only after the day's batch settled (a timeout near
 * the cut-off, a reconciler down across it): the unsettled list no longer holds it, the settled
 * batches do. Found there, it is confirmed, never reported "never reached" while the money is taken.
 */
let conn: Connection;
const mock: AnetMock = { requests: [], respond: never };
const server = setupServer(...authorizeNetHandlers(mock));
beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  server.close();
  await conn?.close();
});

const weekday = weekdays();
const DAY = 86_400_000;
const OK = { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] };
const round = (gateway: PaymentGateway) => reconcile(conn.db, { graceMs: 0, hooks: ledgerHooks, gateway });

async function expectConfirmed(b: { token: string; email: string; reference: string }, gateway: PaymentGateway) {
  const events = await round(gateway);
  expect(events.map((e) => e.kind)).toEqual(["confirmed"]);
  expect((await findBookingByToken(conn.db, b.token))?.paymentChecking).toBe(false);
  expect((await mailsTo(conn.db, b.email)).map((m) => m.subject)).toContain(
    RESOLVED_SUBJECTS.confirmed(`booking ${b.reference}`),
  );
}

describe("a lost answer found only in a settled batch", () => {
  it("on the sandbox: the day's batch settled before the reconciler asked; the charge is found there and the booking confirmed", async () => {
    const today = createSandboxGateway({ db: conn.db });
    const b = await book(conn.db, weekday(2), { card: LOST, gateway: today });
    // The reconciler asks the next day, after the cut-off: the charge is in a settled batch.
    const nextDay = createSandboxGateway({ db: conn.db, now: () => new Date(Date.now() + DAY) });
    const found = await nextDay.findByReference(`L${b.paymentId}`, new Date(Date.now() - 60_000));
    expect(found).toMatchObject({
      status: "found",
      transaction: { settled: true, processorStatus: "settledSuccessfully" },
    });
    await expectConfirmed(b, nextDay);
  });

  it("on Authorize.net (msw): the unsettled list no longer has it, a settled batch does; confirmed, not released", async () => {
    const gateway = createAuthorizeNetGateway({
      loginId: "login-id-test",
      transactionKey: "transaction-key-test",
      endpoint: AUTHORIZENET_ENDPOINTS.sandbox,
      timeoutMs: 300,
    });
    mock.respond = never; // the charge's answer is lost
    const b = await book(conn.db, weekday(3), { gateway });
    const [row] = await rows<{ id: number; state: string }>(
      conn.db,
      `select id, state from payments where id = ${b.paymentId}`,
    );
    expect(row?.state).toBe("unknown");
    const settled = new Date().toISOString();
    const transaction = {
      transId: "60099887766",
      submitTimeUTC: settled,
      submitTimeLocal: settled.replace("Z", ""),
      transactionStatus: "settledSuccessfully",
      invoiceNumber: `L${b.paymentId}`,
      firstName: "Grace",
      lastName: "Hopper",
      accountType: "Visa",
      accountNumber: "XXXX4242",
      settleAmount: 129.95,
      marketType: "eCommerce",
      product: "Card Not Present",
    };
    const none = { messages: { resultCode: "Ok", message: [{ code: "I00004", text: "No records found." }] } };
    mock.respond = (raw) => {
      const body = raw as unknown as Record<string, { batchId?: string; transId?: string }>;
      if (body.getUnsettledTransactionListRequest) return anetJson(none);
      if (body.getSettledBatchListRequest)
        return anetJson({
          batchList: [
            {
              batchId: "12345678",
              settlementTimeUTC: settled,
              settlementTimeLocal: settled.replace("Z", ""),
              settlementState: "settledSuccessfully",
              paymentMethod: "creditCard",
            },
          ],
          messages: OK,
        });
      if (body.getTransactionListRequest)
        return anetJson(
          body.getTransactionListRequest.batchId === "12345678"
            ? { transactions: [transaction], messages: OK, totalNumInResultSet: 1 }
            : none,
        );
      return anetJson({
        transaction: {
          transId: "60099887766",
          submitTimeUTC: settled,
          transactionType: "authCaptureTransaction",
          transactionStatus: "settledSuccessfully",
          responseCode: 1,
          order: { invoiceNumber: `L${b.paymentId}` },
          authAmount: 129.95,
          settleAmount: 129.95,
          batch: { batchId: "12345678", settlementTimeUTC: settled, settlementState: "settledSuccessfully" },
          payment: { creditCard: { cardNumber: "XXXX4242", expirationDate: "XXXX", cardType: "Visa" } },
        },
        messages: OK,
      });
    };
    await expectConfirmed(b, gateway);
    const [after] = await rows<{ state: string; processor_transaction_id: string }>(
      conn.db,
      `select state, processor_transaction_id from payments where id = ${b.paymentId}`,
    );
    expect(after).toEqual({ state: "succeeded", processor_transaction_id: "60099887766" });
  });
});
