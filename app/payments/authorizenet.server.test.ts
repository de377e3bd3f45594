import { HttpResponse } from "msw";
import { createServer, type AddressInfo } from "node:net";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  anetJson,
  answers,
  authorizeNetHandlers,
  captureLogs,
  never,
  secretsIn,
  type AnetMock,
} from "../../tests/integration/payments-support";
import {
  AUTHORIZENET_ENDPOINTS,
  authorizeNetRefId,
  createAuthorizeNetGateway,
  LIST_PAGE_SIZE,
  LOOKUP_MESSAGES,
} from "./authorizenet.server";
import { CARD_MESSAGES } from "./card";
import {
  PAYMENT_MESSAGES,
  PROCESSOR_STATUSES,
  type ChargeRequest,
  type ProcessorStatus,
  type ProcessorTransaction,
} from "./gateway";

/**
 * The Authorize.net adapter against an msw stand-in of its JSON endpoint:
 * the request it sends, and each kind of answer (approval, decline, error,
 * a broken answer, no answer).
 */
const mock: AnetMock = { requests: [], respond: (body) => anetJson(answers.approved(body)) };
const server = setupServer(...authorizeNetHandlers(mock));
const logs = captureLogs();

const NOW = new Date("2026-04-15T16:00:00Z");
const gateway = createAuthorizeNetGateway({
  loginId: "login-id-test",
  transactionKey: "transaction-key-test",
  endpoint: AUTHORIZENET_ENDPOINTS.sandbox,
  timeoutMs: 300,
  now: () => NOW,
});

const KEY = "3f1c9a52-8d7e-4b1a-9f0e-2c6d5b4a3e21"; // a form render's key (a UUID: longer than a refId may be)
const request = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  amountCents: 25050,
  currency: "USD",
  idempotencyKey: KEY,
  card: { number: "4111 1111 1111 1111", expMonth: "4", expYear: "30", cvc: "847", holder: "Ada King Lovelace" },
  description: "Invoice payment 1001",
  customer: { email: "ada@example.com", ip: "203.0.113.7" },
  billing: { address: "1 Main St", city: "Flint", state: "MI", zip: "48502", country: "United States" },
  invoiceNumber: "1001",
  reference: "L41",
  ...over,
});

beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => {
  mock.requests.length = 0;
  mock.respond = (body) => anetJson(answers.approved(body));
});
afterAll(() => {
  server.close();
  logs.restore();
});

describe("the request", () => {
  it("createTransactionRequest / authCaptureTransaction, in the schema's order, with nothing extra", async () => {
    await gateway.charge(request());
    expect(mock.requests).toHaveLength(1);
    const body = mock.requests[0]!;
    expect(body).toEqual({
      createTransactionRequest: {
        merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
        refId: authorizeNetRefId(KEY),
        transactionRequest: {
          transactionType: "authCaptureTransaction",
          amount: "250.50",
          payment: { creditCard: { cardNumber: "4111111111111111", expirationDate: "2030-04", cardCode: "847" } },
          // The ledger's reference is the order's invoice number; the description names the company's invoice.
          order: { invoiceNumber: "L41", description: "Invoice payment 1001" },
          customer: { email: "ada@example.com" },
          billTo: {
            firstName: "Ada King",
            lastName: "Lovelace",
            address: "1 Main St",
            city: "Flint",
            state: "MI",
            zip: "48502",
            country: "United States",
          },
          customerIP: "203.0.113.7",
        },
      },
    });
    // JSON objects are read as the XML schema's sequences: the order is part of the contract.
    expect(Object.keys(body.createTransactionRequest)).toEqual([
      "merchantAuthentication",
      "refId",
      "transactionRequest",
    ]);
    expect(Object.keys(body.createTransactionRequest.transactionRequest)).toEqual([
      "transactionType",
      "amount",
      "payment",
      "order",
      "customer",
      "billTo",
      "customerIP",
    ]);
  });

  it("refId: at most 20 characters, derived from the key (the same on every instance and retry)", async () => {
    await gateway.charge(request());
    await gateway.charge(request({ idempotencyKey: "x".repeat(200) }));
    const [first, second] = mock.requests.map((b) => b.createTransactionRequest.refId as string);
    expect(first).toMatch(/^[0-9a-f]{20}$/);
    expect(second).toMatch(/^[0-9a-f]{20}$/);
    expect(first).toBe(authorizeNetRefId(KEY));
    expect(second).not.toBe(first);
  });

  it("only what is known is sent: no empty order, customer or address; an IPv6 address is left out", async () => {
    await gateway.charge(
      request({
        customer: { ip: "2001:db8::1" },
        billing: undefined,
        invoiceNumber: undefined,
        card: { ...request().card, holder: "Cher" },
      }),
    );
    expect(mock.requests[0]!.createTransactionRequest.transactionRequest).toEqual({
      transactionType: "authCaptureTransaction",
      amount: "250.50",
      payment: { creditCard: { cardNumber: "4111111111111111", expirationDate: "2030-04", cardCode: "847" } },
      order: { invoiceNumber: "L41", description: "Invoice payment 1001" },
      billTo: { firstName: "Cher" },
    });
  });

  it("the company's invoice number goes into the description when it does not name it already", async () => {
    await gateway.charge(request({ invoiceNumber: "12345", description: "Payment on account", reference: "L7" }));
    expect(mock.requests[0]!.createTransactionRequest.transactionRequest.order).toEqual({
      invoiceNumber: "L7",
      description: "Invoice 12345: Payment on account",
    });
  });

  it("a card that fails the checks is not sent at all", async () => {
    expect(await gateway.charge(request({ card: { ...request().card, number: "4111 1111 1111 1112" } }))).toEqual({
      status: "declined",
      reason: "invalid",
      message: CARD_MESSAGES.number,
    });
    expect(
      await gateway.charge(request({ card: { ...request().card, expYear: "2026", expMonth: "3" } })),
    ).toMatchObject({
      message: CARD_MESSAGES.expired,
    });
    expect(mock.requests).toHaveLength(0);
  });
});

describe("the answers", () => {
  it("approval (BOM-prefixed JSON): transaction id, brand from accountType, last four from accountNumber", async () => {
    mock.respond = (body) =>
      anetJson(answers.approved(body, { transId: "60099887766", accountNumber: "XXXX1111", accountType: "Visa" }));
    expect(await gateway.charge(request())).toEqual({
      status: "approved",
      transactionId: "60099887766",
      brand: "Visa",
      last4: "1111",
    });
  });

  it("the BOM really is there and stripped (the same answer without it parses too)", async () => {
    mock.respond = (body) => anetJson(answers.approved(body));
    const raw = await anetJson({ a: 1 }).arrayBuffer();
    expect([...new Uint8Array(raw).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await gateway.charge(request())).toMatchObject({ status: "approved" });
    mock.respond = (body) => HttpResponse.json(answers.approved(body));
    expect(await gateway.charge(request())).toMatchObject({ status: "approved" });
  });

  it("decline (responseCode 2): its errorText is the message", async () => {
    mock.respond = (body) => anetJson(answers.declined(body, "This transaction has been declined."));
    expect(await gateway.charge(request())).toEqual({
      status: "declined",
      reason: "card",
      message: "This transaction has been declined.",
    });
  });

  it("transaction error (responseCode 3): the cardholder's errors are shown, the merchant's are not", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "8", "The credit card has expired."));
    expect(await gateway.charge(request())).toEqual({
      status: "declined",
      reason: "error",
      message: "The credit card has expired.",
    });
    mock.respond = (body) =>
      anetJson(
        answers.transactionError(
          body,
          "13",
          "The merchant login ID or password is invalid or the account is inactive.",
        ),
      );
    expect(await gateway.charge(request())).toEqual({
      status: "declined",
      reason: "error",
      message: PAYMENT_MESSAGES.processorError,
    });
  });

  it("error response (resultCode Error, no transaction): nothing charged, a general message", async () => {
    mock.respond = (body) => anetJson(answers.requestError(body));
    expect(await gateway.charge(request())).toEqual({
      status: "declined",
      reason: "error",
      message: PAYMENT_MESSAGES.processorError,
    });
  });

  it("held for review (responseCode 4): unknown, with the transaction id to look it up", async () => {
    mock.respond = (body) => anetJson(answers.heldForReview(body));
    expect(await gateway.charge(request())).toEqual({
      status: "unknown",
      message: PAYMENT_MESSAGES.unknown,
      transactionId: "60012345680",
    });
  });

  it("malformed answers: not JSON, JSON of another shape, an approval without a transaction id, an HTTP error → unknown", async () => {
    const malformed: AnetMock["respond"][] = [
      () => new HttpResponse("<html><body>502 Bad Gateway</body></html>", { headers: { "content-type": "text/html" } }),
      () => anetJson({ hello: "world" }),
      () =>
        new HttpResponse('\uFEFF{"messages":{"resultCode":"Ok"', { headers: { "content-type": "application/json" } }),
      (body) =>
        anetJson({
          ...answers.approved(body),
          transactionResponse: { ...answers.approved(body).transactionResponse, transId: "" },
        }),
      (body) =>
        anetJson({
          ...answers.approved(body),
          transactionResponse: { ...answers.approved(body).transactionResponse, transId: "0" },
        }),
      (body) => anetJson({ ...answers.approved(body), refId: "someone-else" }),
      (body) => anetJson(answers.approved(body), { status: 500 }),
      () => HttpResponse.error(),
    ];
    for (const respond of malformed) {
      mock.respond = respond;
      expect(await gateway.charge(request()), respond.toString()).toEqual({
        status: "unknown",
        message: PAYMENT_MESSAGES.unknown,
      });
    }
  });

  it("timeout: no answer within the limit → unknown, and the wait is bounded", async () => {
    mock.respond = never;
    const started = performance.now();
    expect(await gateway.charge(request())).toEqual({ status: "unknown", message: PAYMENT_MESSAGES.unknown });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(mock.requests).toHaveLength(1);
  });

  it("an endpoint that refuses the connection: nothing was sent, so declined (not unknown)", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = createAuthorizeNetGateway({
      loginId: "l",
      transactionKey: "k",
      endpoint: `http://127.0.0.1:${port}/xml/v1/request.api`,
      timeoutMs: 2_000,
      now: () => NOW,
    });
    expect(await closed.charge(request())).toEqual({
      status: "declined",
      reason: "error",
      message: PAYMENT_MESSAGES.unreachable,
    });
  });
});

describe("void and refund", () => {
  it("voidTransaction names the transaction; refundTransaction the amount and the card's last four", async () => {
    mock.respond = (body) =>
      anetJson(
        answers.approved(body, {
          transId:
            body.createTransactionRequest.transactionRequest.transactionType === "voidTransaction"
              ? "60012345678"
              : "60012345690",
        }),
      );
    expect(await gateway.void("60012345678", "L42")).toEqual({ status: "approved", transactionId: "60012345678" });
    expect(await gateway.refund("60012345678", 25050, "1111", "L43")).toEqual({
      status: "approved",
      transactionId: "60012345690",
    });
    expect(mock.requests.map((b) => b.createTransactionRequest)).toEqual([
      {
        merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
        transactionRequest: { transactionType: "voidTransaction", refTransId: "60012345678" },
      },
      {
        merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
        transactionRequest: {
          transactionType: "refundTransaction",
          amount: "250.50",
          payment: { creditCard: { cardNumber: "1111", expirationDate: "XXXX" } },
          refTransId: "60012345678",
          order: { invoiceNumber: "L43" },
        },
      },
    ]);
    expect(Object.keys(mock.requests[1]!.createTransactionRequest.transactionRequest)).toEqual([
      "transactionType",
      "amount",
      "payment",
      "refTransId",
      "order",
    ]);
  });

  it("a refused void says why; a void without an answer is unknown", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "16", "The transaction cannot be found."));
    expect(await gateway.void("60012345678", "L42")).toEqual({
      status: "declined",
      message: "The transaction cannot be found.",
    });
    mock.respond = never;
    expect(await gateway.void("60012345678", "L42")).toMatchObject({ status: "unknown" });
  });
});

describe("duplicate refusals (responseCode 3, reason 11)", () => {
  const duplicate = "A duplicate transaction has been submitted.";

  it("a charge: declined as a duplicate, and the visitor is told not to pay again (the earlier one may be taken)", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "11", duplicate));
    expect(await gateway.charge(request())).toEqual({
      status: "declined",
      reason: "duplicate",
      message: PAYMENT_MESSAGES.unknown,
    });
  });

  it("a void and a refund: declined with duplicate: true", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "11", duplicate));
    expect(await gateway.void("60012345678", "L42")).toEqual({
      status: "declined",
      message: duplicate,
      duplicate: true,
    });
    expect(await gateway.refund("60012345678", 25050, "1111", "L43")).toEqual({
      status: "declined",
      message: duplicate,
      duplicate: true,
    });
  });

  it("reason 11 only counts as a duplicate with responseCode 3; other refusals are plain", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "16", "The transaction cannot be found."));
    expect(await gateway.refund("60012345678", 25050, "1111", "L43")).toEqual({
      status: "declined",
      message: "The transaction cannot be found.",
    });
    mock.respond = (body) => anetJson(answers.declined(body));
    expect(await gateway.charge(request())).toMatchObject({ status: "declined", reason: "card" });
    mock.respond = (body) => {
      const answer = answers.declined(body);
      return anetJson({
        ...answer,
        transactionResponse: { ...answer.transactionResponse, errors: [{ errorCode: "11", errorText: duplicate }] },
      });
    };
    expect(await gateway.void("60012345678", "L42")).toEqual({ status: "declined", message: duplicate });
  });
});

/** The look-ups' requests (the mock records every body under the createTransactionRequest type). */
type LookupBody = {
  getTransactionDetailsRequest?: { merchantAuthentication: unknown; transId: string };
  getUnsettledTransactionListRequest?: {
    merchantAuthentication: unknown;
    sorting: { orderBy: string; orderDescending: boolean };
    paging: { limit: number; offset: number };
  };
};
const asLookup = (body: unknown) => body as LookupBody;
const OK = { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] };

/** getTransactionDetailsResponse as the API documents it (the members we read and a few we do not). */
function details(over: Record<string, unknown> = {}) {
  return {
    transaction: {
      transId: "60012345678",
      submitTimeUTC: "2026-04-15T16:00:01.123Z",
      submitTimeLocal: "2026-04-15T09:00:01.123",
      transactionType: "authCaptureTransaction",
      transactionStatus: "capturedPendingSettlement",
      responseCode: 1,
      responseReasonCode: 1,
      responseReasonDescription: "Approval",
      authCode: "HH5414",
      AVSResponse: "Y",
      cardCodeResponse: "P",
      order: { invoiceNumber: "L41", description: "Invoice payment 1001" },
      requestedAmountSpecified: false,
      authAmount: 250.5,
      settleAmount: 250.5,
      taxExempt: false,
      payment: { creditCard: { cardNumber: "XXXX1111", expirationDate: "XXXX", cardType: "Visa" } },
      customer: { email: "ada@example.com" },
      billTo: { firstName: "Ada King", lastName: "Lovelace", address: "1 Main St", city: "Flint", state: "MI" },
      recurringBilling: false,
      customerIP: "203.0.113.7",
      product: "Card Not Present",
      marketType: "eCommerce",
      ...over,
    },
    messages: OK,
  };
}

/** getUnsettledTransactionListResponse: summaries, newest first. */
function unsettled(transactions: { transId: string; invoiceNumber?: string; submitTimeUTC: string; status: string }[]) {
  return {
    transactions: transactions.map((t) => ({
      transId: t.transId,
      submitTimeUTC: t.submitTimeUTC,
      submitTimeLocal: t.submitTimeUTC.replace("Z", ""),
      transactionStatus: t.status,
      ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}),
      firstName: "Ada King",
      lastName: "Lovelace",
      accountType: "Visa",
      accountNumber: "XXXX1111",
      settleAmount: 100.0,
      marketType: "eCommerce",
      product: "Card Not Present",
    })),
    messages: OK,
    totalNumInResultSet: transactions.length,
  };
}

describe("look-ups", () => {
  it("lookup: getTransactionDetailsRequest by id; an unsettled charge is found with its reference and card", async () => {
    mock.respond = () => anetJson(details());
    expect(await gateway.lookup("60012345678")).toEqual({
      status: "found",
      transaction: {
        transactionId: "60012345678",
        type: "charge",
        status: "approved",
        processorStatus: "capturedPendingSettlement",
        settled: false,
        amountCents: 25050,
        reference: "L41",
        brand: "Visa",
        last4: "1111",
      },
    });
    expect(mock.requests).toEqual([
      {
        getTransactionDetailsRequest: {
          merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
          transId: "60012345678",
        },
      },
    ]);
  });

  it("a settled charge names its batch; a voided one keeps its authorized amount", async () => {
    mock.respond = () =>
      anetJson(
        details({
          transactionStatus: "settledSuccessfully",
          batch: {
            batchId: "1221577",
            settlementTimeUTC: "2026-04-15T22:00:00Z",
            settlementState: "settledSuccessfully",
          },
        }),
      );
    expect(await gateway.lookup("60012345678")).toMatchObject({
      status: "found",
      transaction: {
        type: "charge",
        status: "approved",
        processorStatus: "settledSuccessfully",
        settled: true,
        batchId: "1221577",
        amountCents: 25050,
      },
    });
    // A voided charge settles nothing: its settleAmount is 0, its authorized amount is what it was.
    mock.respond = () => anetJson(details({ transactionStatus: "voided", settleAmount: 0 }));
    const voided = await gateway.lookup("60012345678");
    expect(voided).toMatchObject({
      status: "found",
      transaction: { status: "voided", processorStatus: "voided", settled: false, amountCents: 25050 },
    });
    expect(voided.status === "found" && "batchId" in voided.transaction).toBe(false);
  });

  // What each of Authorize.net's statuses means for money, written out here rather than read from the adapter.
  const MEANING: Record<ProcessorStatus, [ProcessorTransaction["status"], boolean]> = {
    authorizedPendingCapture: ["approved", false],
    capturedPendingSettlement: ["approved", false],
    settledSuccessfully: ["approved", true],
    refundPendingSettlement: ["approved", false],
    refundSettledSuccessfully: ["approved", true],
    approvedReview: ["approved", false],
    voided: ["voided", false],
    declined: ["declined", false],
    expired: ["declined", false],
    failedReview: ["declined", false],
    communicationError: ["declined", false],
    generalError: ["declined", false],
    settlementError: ["declined", false],
    couldNotVoid: ["declined", false],
    returnedItem: ["declined", false],
    FDSPendingReview: ["review", false],
    FDSAuthorizedPendingReview: ["review", false],
    underReview: ["review", false],
  };

  it.each(PROCESSOR_STATUSES)("transactionStatus %s is read as what it means, and kept by name", async (name) => {
    const [status, settled] = MEANING[name];
    mock.respond = () => anetJson(details({ transactionStatus: name }));
    expect(await gateway.lookup("60012345678")).toMatchObject({
      status: "found",
      transaction: { status, settled, processorStatus: name },
    });
  });

  it("a status Authorize.net adds later is not guessed at (a refusal could give back money taken): unknown", async () => {
    for (const name of ["settledPendingReview", "", "SETTLEDSUCCESSFULLY", "toString", "__proto__"]) {
      mock.respond = () => anetJson(details({ transactionStatus: name }));
      expect(await gateway.lookup("60012345678"), name).toEqual({
        status: "unknown",
        message: LOOKUP_MESSAGES.status,
      });
    }
  });

  it("E00040 (no such record) → missing; an id that is not Authorize.net's is missing without asking", async () => {
    mock.respond = () =>
      anetJson({
        messages: { resultCode: "Error", message: [{ code: "E00040", text: "The record cannot be found." }] },
      });
    expect(await gateway.lookup("60012349999")).toEqual({ status: "missing" });
    expect(mock.requests).toHaveLength(1);
    expect(await gateway.lookup("sbx_0123456789abcdef01234567")).toEqual({ status: "missing" });
    expect(mock.requests).toHaveLength(1);
  });

  it("another error (the Transaction Details API not enabled), garbage, a timeout → unknown", async () => {
    mock.respond = () =>
      anetJson({ messages: { resultCode: "Error", message: [{ code: "E00011", text: "Access denied." }] } });
    expect(await gateway.lookup("60012345678")).toEqual({ status: "unknown", message: LOOKUP_MESSAGES.refused });
    mock.respond = () => new HttpResponse("<html>502</html>", { headers: { "content-type": "text/html" } });
    expect(await gateway.lookup("60012345678")).toEqual({ status: "unknown", message: LOOKUP_MESSAGES.noAnswer });
    mock.respond = () => anetJson({ messages: OK, transaction: { transId: "60012345678" } });
    expect(await gateway.lookup("60012345678")).toMatchObject({ status: "unknown" });
    mock.respond = never;
    const started = performance.now();
    expect(await gateway.lookup("60012345678")).toEqual({ status: "unknown", message: LOOKUP_MESSAGES.noAnswer });
    expect(performance.now() - started).toBeLessThan(5_000);
    mock.respond = never;
    expect(await gateway.findByReference("L77")).toEqual({ status: "unknown", message: LOOKUP_MESSAGES.noAnswer });
  });

  it("findByReference: the unsettled list (newest first) matched on the invoice number, then the refund's details", async () => {
    mock.respond = (raw) => {
      const body = asLookup(raw);
      if (body.getUnsettledTransactionListRequest)
        return anetJson(
          unsettled([
            {
              transId: "60012345700",
              invoiceNumber: "L78",
              submitTimeUTC: "2026-04-15T16:05:00Z",
              status: "refundPendingSettlement",
            },
            {
              transId: "60012345690",
              invoiceNumber: "L77",
              submitTimeUTC: "2026-04-15T16:04:00Z",
              status: "refundPendingSettlement",
            },
            { transId: "60012345680", submitTimeUTC: "2026-04-15T16:03:00Z", status: "capturedPendingSettlement" },
            {
              transId: "60012345670",
              invoiceNumber: "L777",
              submitTimeUTC: "2026-04-15T16:02:00Z",
              status: "capturedPendingSettlement",
            },
          ]),
        );
      return anetJson(
        details({
          transId: body.getTransactionDetailsRequest!.transId,
          refTransId: "60012345678",
          transactionType: "refundTransaction",
          transactionStatus: "refundPendingSettlement",
          order: { invoiceNumber: "L77" },
          authAmount: "100.00",
          settleAmount: "100.00",
        }),
      );
    };
    expect(await gateway.findByReference("L77")).toEqual({
      status: "found",
      transaction: {
        transactionId: "60012345690",
        type: "refund",
        status: "approved",
        processorStatus: "refundPendingSettlement",
        settled: false,
        amountCents: 10000,
        reference: "L77",
        parentTransactionId: "60012345678",
        brand: "Visa",
        last4: "1111",
      },
    });
    expect(mock.requests).toEqual([
      {
        getUnsettledTransactionListRequest: {
          merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
          sorting: { orderBy: "submitTimeUTC", orderDescending: true },
          paging: { limit: LIST_PAGE_SIZE, offset: 1 },
        },
      },
      {
        getTransactionDetailsRequest: {
          merchantAuthentication: { name: "login-id-test", transactionKey: "transaction-key-test" },
          transId: "60012345690",
        },
      },
    ]);
    expect(Object.keys(asLookup(mock.requests[0]).getUnsettledTransactionListRequest!)).toEqual([
      "merchantAuthentication",
      "sorting",
      "paging",
    ]);
  });

  it("findByReference: no match → missing; an empty list (no transactions member) → missing; a full page → the next", async () => {
    mock.respond = () =>
      anetJson(
        unsettled([
          { transId: "60012345670", invoiceNumber: "L1", submitTimeUTC: "2026-04-15T16:02:00Z", status: "voided" },
        ]),
      );
    expect(await gateway.findByReference("L2")).toEqual({ status: "missing" });
    mock.respond = () =>
      anetJson({ messages: { resultCode: "Ok", message: [{ code: "I00004", text: "No records found." }] } });
    expect(await gateway.findByReference("L2")).toEqual({ status: "missing" });

    mock.requests.length = 0;
    const full = Array.from({ length: LIST_PAGE_SIZE }, (_, i) => ({
      transId: String(60012340000 + i),
      invoiceNumber: `L${5000 + i}`,
      submitTimeUTC: "2026-04-15T16:00:00Z",
      status: "capturedPendingSettlement",
    }));
    mock.respond = (raw) => {
      const body = asLookup(raw);
      if (body.getUnsettledTransactionListRequest?.paging.offset === 1) return anetJson(unsettled(full));
      if (body.getUnsettledTransactionListRequest)
        return anetJson(
          unsettled([
            {
              transId: "60012330000",
              invoiceNumber: "L9",
              submitTimeUTC: "2026-04-14T16:00:00Z",
              status: "settledSuccessfully",
            },
          ]),
        );
      return anetJson(
        details({ transId: "60012330000", order: { invoiceNumber: "L9" }, transactionStatus: "settledSuccessfully" }),
      );
    };
    expect(await gateway.findByReference("L9")).toMatchObject({
      status: "found",
      transaction: { transactionId: "60012330000", reference: "L9", settled: true },
    });
    expect(
      mock.requests.map((b) => asLookup(b).getUnsettledTransactionListRequest?.paging.offset ?? "details"),
    ).toEqual([1, 2, "details"]);
  });

  it("findByReference: a refused list (error answer) → unknown, never missing", async () => {
    mock.respond = () =>
      anetJson({ messages: { resultCode: "Error", message: [{ code: "E00011", text: "Access denied." }] } });
    expect(await gateway.findByReference("L41")).toEqual({ status: "unknown", message: LOOKUP_MESSAGES.refused });
  });
});

describe("secrets", () => {
  it("no card number or CVC in any log call made by these tests, nor in any result", async () => {
    // The file's other tests ran first (one file, in order); their log calls are all here.
    mock.respond = (body) => anetJson(answers.declined(body));
    const result = await gateway.charge(request());
    expect(secretsIn(JSON.stringify(result))).toEqual([]);
    expect(logs.lines.length).toBeGreaterThan(0); // the capture sees the adapter's calls
    for (const line of logs.lines) expect(secretsIn(line), line).toEqual([]);
  });
});
