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
  LIST_PAGES,
  LOOKUP_MESSAGES,
  SETTLED_BATCHES,
  SETTLED_WINDOWS,
  SETTLEMENT_WINDOW_DAYS,
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
/** When the charge whose answer was lost was made: the evening before NOW, before the day's cut-off. */
const SINCE = new Date("2026-04-14T21:50:00Z");
const DAY = 86_400_000;
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

/** An endpoint on a port that was free a moment ago: nothing listens there. */
async function closedEndpoint() {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  return `http://127.0.0.1:${port}/xml/v1/request.api`;
}

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
    // Its cardNumber holds at most 16 digits: a 19-digit card is refused here, not by the processor.
    expect(await gateway.charge(request({ card: { ...request().card, number: "4111 1111 1111 1111 110" } }))).toEqual({
      status: "declined",
      reason: "invalid",
      message: CARD_MESSAGES.numberLength,
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
    const closed = createAuthorizeNetGateway({
      loginId: "l",
      transactionKey: "k",
      endpoint: await closedEndpoint(),
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

  it("an id that is not Authorize.net's (digits) is refused without asking: the schema would refuse the body", async () => {
    for (const id of ["sbx_0123456789abcdef01234567", "6001\u00002345678", "0", ""]) {
      expect(await gateway.void(id, "L42"), id).toMatchObject({ status: "declined" });
      expect(await gateway.refund(id, 25050, "1111", "L43"), id).toMatchObject({ status: "declined" });
    }
    expect(mock.requests).toHaveLength(0);
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
type ListRequest = {
  merchantAuthentication: unknown;
  sorting: { orderBy: string; orderDescending: boolean };
  paging: { limit: number; offset: number };
};
type LookupBody = {
  getTransactionDetailsRequest?: { merchantAuthentication: unknown; transId: string };
  getUnsettledTransactionListRequest?: ListRequest;
  getSettledBatchListRequest?: {
    merchantAuthentication: unknown;
    firstSettlementDate: string;
    lastSettlementDate: string;
  };
  getTransactionListRequest?: ListRequest & { batchId: string };
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

type Summary = { transId: string; invoiceNumber?: string; submitTimeUTC: string; status: string };

/** getUnsettledTransactionListResponse (and getTransactionListResponse, the same shape): summaries, newest first. */
function unsettled(transactions: Summary[]) {
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
    expect(await gateway.findByReference("L77", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.noAnswer,
    });
  });
});

type Batch = { batchId: string; settlementTimeUTC: string };

/**
 * The reporting API's books: the unsettled list, the settled batches (the batch list answers
 * those settled within the dates asked) and each batch's transactions, every list paged as the
 * API pages it; the details of any transaction from `details`.
 */
function processor(books: {
  unsettled?: Summary[];
  batches?: Batch[];
  batch?: Record<string, Summary[]>;
  details?: (transId: string) => unknown;
}): AnetMock["respond"] {
  const page = (items: Summary[], paging: { limit: number; offset: number }) =>
    items.slice((paging.offset - 1) * paging.limit, paging.offset * paging.limit);
  const noRecords = { messages: { resultCode: "Ok", message: [{ code: "I00004", text: "No records found." }] } };
  return (raw) => {
    const body = asLookup(raw);
    if (body.getUnsettledTransactionListRequest) {
      const listed = page(books.unsettled ?? [], body.getUnsettledTransactionListRequest.paging);
      return anetJson(listed.length ? unsettled(listed) : noRecords);
    }
    if (body.getSettledBatchListRequest) {
      const first = Date.parse(body.getSettledBatchListRequest.firstSettlementDate);
      const last = Date.parse(body.getSettledBatchListRequest.lastSettlementDate);
      const within = (books.batches ?? []).filter((b) => {
        const at = Date.parse(b.settlementTimeUTC);
        return at >= first && at <= last;
      });
      if (!within.length) return anetJson(noRecords);
      return anetJson({
        batchList: within.map((b) => ({
          batchId: b.batchId,
          settlementTimeUTC: b.settlementTimeUTC,
          settlementTimeLocal: b.settlementTimeUTC.replace("Z", ""),
          settlementState: "settledSuccessfully",
          paymentMethod: "creditCard",
          marketType: "eCommerce",
          product: "Card Not Present",
        })),
        messages: OK,
      });
    }
    if (body.getTransactionListRequest) {
      const { batchId, paging } = body.getTransactionListRequest;
      const listed = page(books.batch?.[batchId] ?? [], paging);
      return anetJson(listed.length ? unsettled(listed) : noRecords);
    }
    const transId = body.getTransactionDetailsRequest!.transId;
    return anetJson(books.details?.(transId) ?? details({ transId }));
  };
}

/** What each request asked, in order: "unsettled 1", "batches <first> <last>", "batch <id> <page>", "details <id>". */
const asked = () =>
  mock.requests.map((raw) => {
    const body = asLookup(raw);
    if (body.getUnsettledTransactionListRequest)
      return `unsettled ${body.getUnsettledTransactionListRequest.paging.offset}`;
    if (body.getSettledBatchListRequest)
      return `batches ${body.getSettledBatchListRequest.firstSettlementDate} ${body.getSettledBatchListRequest.lastSettlementDate}`;
    if (body.getTransactionListRequest)
      return `batch ${body.getTransactionListRequest.batchId} ${body.getTransactionListRequest.paging.offset}`;
    return `details ${body.getTransactionDetailsRequest?.transId}`;
  });

const AUTH = { name: "login-id-test", transactionKey: "transaction-key-test" };
const NEWEST_FIRST = { orderBy: "submitTimeUTC", orderDescending: true };

describe("findByReference(reference, since)", () => {
  it("in the unsettled list (newest first, matched on the invoice number): its details, and no batch is asked", async () => {
    mock.respond = processor({
      unsettled: [
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
      ],
      details: (transId) =>
        details({
          transId,
          refTransId: "60012345678",
          transactionType: "refundTransaction",
          transactionStatus: "refundPendingSettlement",
          order: { invoiceNumber: "L77" },
          authAmount: "100.00",
          settleAmount: "100.00",
        }),
    });
    expect(await gateway.findByReference("L77", SINCE)).toEqual({
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
          merchantAuthentication: AUTH,
          sorting: NEWEST_FIRST,
          paging: { limit: LIST_PAGE_SIZE, offset: 1 },
        },
      },
      { getTransactionDetailsRequest: { merchantAuthentication: AUTH, transId: "60012345690" } },
    ]);
    expect(Object.keys(asLookup(mock.requests[0]).getUnsettledTransactionListRequest!)).toEqual([
      "merchantAuthentication",
      "sorting",
      "paging",
    ]);
  });

  it("only in a batch settled since then: the answer lost before the cut-off and looked up after it is found", async () => {
    // Charged at 5:55 PM in Michigan, the answer lost; the batch settled overnight; the look-up runs the next day.
    mock.respond = processor({
      unsettled: [
        {
          transId: "60012345800",
          invoiceNumber: "L50",
          submitTimeUTC: "2026-04-15T15:00:00Z",
          status: "capturedPendingSettlement",
        },
      ],
      batches: [{ batchId: "1221577", settlementTimeUTC: "2026-04-15T06:12:00Z" }],
      batch: {
        "1221577": [
          {
            transId: "60012345679",
            invoiceNumber: "L40",
            submitTimeUTC: "2026-04-14T22:10:00Z",
            status: "settledSuccessfully",
          },
          {
            transId: "60012345678",
            invoiceNumber: "L41",
            submitTimeUTC: "2026-04-14T21:55:00Z",
            status: "settledSuccessfully",
          },
        ],
      },
      details: (transId) =>
        details({
          transId,
          transactionStatus: "settledSuccessfully",
          batch: {
            batchId: "1221577",
            settlementTimeUTC: "2026-04-15T06:12:00Z",
            settlementState: "settledSuccessfully",
          },
        }),
    });
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "found",
      transaction: {
        transactionId: "60012345678",
        type: "charge",
        status: "approved",
        processorStatus: "settledSuccessfully",
        settled: true,
        batchId: "1221577",
        amountCents: 25050,
        reference: "L41",
        brand: "Visa",
        last4: "1111",
      },
    });
    expect(mock.requests.slice(1)).toEqual([
      {
        getSettledBatchListRequest: {
          merchantAuthentication: AUTH,
          // A day before `since`, to now: the processor's clock is not ours to trust to the minute.
          firstSettlementDate: "2026-04-13T21:50:00Z",
          lastSettlementDate: "2026-04-15T16:00:00Z",
        },
      },
      {
        getTransactionListRequest: {
          merchantAuthentication: AUTH,
          batchId: "1221577",
          sorting: NEWEST_FIRST,
          paging: { limit: LIST_PAGE_SIZE, offset: 1 },
        },
      },
      { getTransactionDetailsRequest: { merchantAuthentication: AUTH, transId: "60012345678" } },
    ]);
    expect(Object.keys(asLookup(mock.requests[1]).getSettledBatchListRequest!)).toEqual([
      "merchantAuthentication",
      "firstSettlementDate",
      "lastSettlementDate",
    ]);
    expect(Object.keys(asLookup(mock.requests[2]).getTransactionListRequest!)).toEqual([
      "merchantAuthentication",
      "batchId",
      "sorting",
      "paging",
    ]);
  });

  it("missing only when the unsettled list and every batch settled since then were read to their ends", async () => {
    mock.respond = processor({
      unsettled: [
        { transId: "60012345800", invoiceNumber: "L50", submitTimeUTC: "2026-04-15T15:00:00Z", status: "voided" },
      ],
      batches: [
        { batchId: "1221500", settlementTimeUTC: "2026-04-14T06:00:00Z" },
        { batchId: "1221577", settlementTimeUTC: "2026-04-15T06:00:00Z" },
      ],
      batch: {
        "1221500": [
          {
            transId: "60012345600",
            invoiceNumber: "L4",
            submitTimeUTC: "2026-04-13T20:00:00Z",
            status: "settledSuccessfully",
          },
        ],
        "1221577": [
          {
            transId: "60012345678",
            invoiceNumber: "L411",
            submitTimeUTC: "2026-04-14T21:55:00Z",
            status: "settledSuccessfully",
          },
        ],
      },
    });
    expect(await gateway.findByReference("L41", SINCE)).toEqual({ status: "missing" });
    // Newest batch first; no details asked for anything.
    expect(asked()).toEqual([
      "unsettled 1",
      "batches 2026-04-13T21:50:00Z 2026-04-15T16:00:00Z",
      "batch 1221577 1",
      "batch 1221500 1",
    ]);

    mock.requests.length = 0;
    mock.respond = processor({});
    expect(await gateway.findByReference("L41", SINCE)).toEqual({ status: "missing" });
    expect(asked()).toEqual(["unsettled 1", "batches 2026-04-13T21:50:00Z 2026-04-15T16:00:00Z"]);
  });

  it("a processor that cannot be asked, or stops answering partway, is unknown: never missing", async () => {
    const closed = createAuthorizeNetGateway({
      loginId: "l",
      transactionKey: "k",
      endpoint: await closedEndpoint(),
      timeoutMs: 2_000,
      now: () => NOW,
    });
    expect(await closed.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.noAnswer,
    });

    const books = {
      unsettled: [],
      batches: [{ batchId: "1221577", settlementTimeUTC: "2026-04-15T06:00:00Z" }],
      batch: {},
    };
    const refused = () =>
      anetJson({ messages: { resultCode: "Error", message: [{ code: "E00011", text: "Access denied." }] } });
    // The unsettled list refused; then the batch list refused; then a batch's list unanswered.
    mock.respond = refused;
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.refused,
    });
    mock.respond = (raw) => (asLookup(raw).getSettledBatchListRequest ? refused() : processor(books)(raw));
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.refused,
    });
    mock.respond = (raw) => (asLookup(raw).getTransactionListRequest ? never() : processor(books)(raw));
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.noAnswer,
    });
    // A batch id that is not digits cannot be asked about.
    mock.respond = processor({ batches: [{ batchId: "12a", settlementTimeUTC: "2026-04-15T06:00:00Z" }] });
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.unreadable,
    });
    // Listed, then denied by its details a moment later.
    mock.respond = (raw) =>
      asLookup(raw).getTransactionDetailsRequest
        ? anetJson({
            messages: { resultCode: "Error", message: [{ code: "E00040", text: "The record cannot be found." }] },
          })
        : processor({
            unsettled: [
              {
                transId: "60012345678",
                invoiceNumber: "L41",
                submitTimeUTC: "2026-04-15T15:00:00Z",
                status: "capturedPendingSettlement",
              },
            ],
          })(raw);
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.unreadable,
    });
  });

  it("a full page is followed by the next, in the unsettled list and in a batch", async () => {
    const full = (prefix: number, status: string) =>
      Array.from({ length: LIST_PAGE_SIZE }, (_, i) => ({
        transId: String(prefix + i),
        invoiceNumber: `L${prefix + i}`,
        submitTimeUTC: "2026-04-15T12:00:00Z",
        status,
      }));
    mock.respond = processor({
      unsettled: full(60010000000, "capturedPendingSettlement"),
      batches: [{ batchId: "1221577", settlementTimeUTC: "2026-04-15T06:00:00Z" }],
      batch: {
        "1221577": [
          ...full(60020000000, "settledSuccessfully"),
          {
            transId: "60012330000",
            invoiceNumber: "L9",
            submitTimeUTC: "2026-04-14T22:00:00Z",
            status: "settledSuccessfully",
          },
        ],
      },
      details: (transId) =>
        details({ transId, order: { invoiceNumber: "L9" }, transactionStatus: "settledSuccessfully" }),
    });
    expect(await gateway.findByReference("L9", SINCE)).toMatchObject({
      status: "found",
      transaction: { transactionId: "60012330000", reference: "L9", settled: true },
    });
    expect(asked()).toEqual([
      "unsettled 1",
      "unsettled 2",
      "batches 2026-04-13T21:50:00Z 2026-04-15T16:00:00Z",
      "batch 1221577 1",
      "batch 1221577 2",
      "details 60012330000",
    ]);
  });

  it("settled batches are listed in windows of at most 31 days back to `since`, newest first; a batch on an edge is read once", async () => {
    const since = new Date(NOW.getTime() - 70 * DAY);
    const edge = new Date(NOW.getTime() - SETTLEMENT_WINDOW_DAYS * DAY).toISOString().replace(".000Z", "Z");
    mock.respond = processor({
      batches: [
        { batchId: "1000003", settlementTimeUTC: "2026-04-10T06:00:00Z" },
        { batchId: "1000002", settlementTimeUTC: edge },
        { batchId: "1000001", settlementTimeUTC: "2026-02-10T06:00:00Z" },
      ],
    });
    expect(await gateway.findByReference("L41", since)).toEqual({ status: "missing" });
    const windows = mock.requests
      .map((raw) => asLookup(raw).getSettledBatchListRequest)
      .filter((w) => w !== undefined)
      .map((w) => [Date.parse(w.firstSettlementDate), Date.parse(w.lastSettlementDate)] as const);
    expect(windows).toHaveLength(3);
    expect(windows[0]![1]).toBe(NOW.getTime());
    expect(windows.at(-1)![0]).toBe(since.getTime() - DAY);
    for (const [index, [first, last]] of windows.entries()) {
      expect(last - first).toBeGreaterThan(0);
      expect(last - first).toBeLessThanOrEqual(31 * DAY);
      if (index > 0) expect(last).toBe(windows[index - 1]![0]);
    }
    expect(asked().filter((a) => a.startsWith("batch "))).toEqual([
      "batch 1000003 1",
      "batch 1000002 1",
      "batch 1000001 1",
    ]);
  });

  it("since in the future: only the unsettled list can hold it", async () => {
    mock.respond = processor({});
    expect(await gateway.findByReference("L41", new Date(NOW.getTime() + 2 * DAY))).toEqual({ status: "missing" });
    expect(asked()).toEqual(["unsettled 1"]);
  });

  it("the search is bounded: pages per list, windows and batches; past a bound it answers unknown", async () => {
    // A batch of LIST_PAGES full pages without the reference.
    mock.respond = processor({
      batches: [{ batchId: "1221577", settlementTimeUTC: "2026-04-15T06:00:00Z" }],
      batch: {
        "1221577": Array.from({ length: LIST_PAGE_SIZE * LIST_PAGES + 1 }, (_, i) => ({
          transId: String(60020000000 + i),
          invoiceNumber: `L${100000 + i}`,
          submitTimeUTC: "2026-04-15T12:00:00Z",
          status: "settledSuccessfully",
        })),
      },
    });
    expect(await gateway.findByReference("L41", SINCE)).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.tooMany,
    });
    expect(asked().filter((a) => a.startsWith("batch "))).toHaveLength(LIST_PAGES);

    // Two years back: SETTLED_WINDOWS windows are asked, then unknown (it may be further back).
    mock.requests.length = 0;
    mock.respond = processor({});
    expect(await gateway.findByReference("L41", new Date(NOW.getTime() - 730 * DAY))).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.tooMany,
    });
    expect(asked().filter((a) => a.startsWith("batches "))).toHaveLength(SETTLED_WINDOWS);

    // More batches than SETTLED_BATCHES in one window: the newest are read, then unknown.
    mock.requests.length = 0;
    const batches = Array.from({ length: SETTLED_BATCHES + 5 }, (_, i) => ({
      batchId: String(2000000 + i),
      settlementTimeUTC: new Date(NOW.getTime() - (i + 1) * 3_600_000).toISOString(),
    }));
    mock.respond = processor({ batches });
    expect(await gateway.findByReference("L41", new Date(NOW.getTime() - 20 * DAY))).toEqual({
      status: "unknown",
      message: LOOKUP_MESSAGES.tooMany,
    });
    const read = asked().filter((a) => a.startsWith("batch "));
    expect(read).toHaveLength(SETTLED_BATCHES);
    expect(read[0]).toBe("batch 2000000 1");

    // Within the bounds it is still found, however far back `since` is.
    mock.requests.length = 0;
    mock.respond = processor({
      batches,
      batch: {
        "2000003": [
          {
            transId: "60012345678",
            invoiceNumber: "L41",
            submitTimeUTC: "2026-04-15T01:00:00Z",
            status: "settledSuccessfully",
          },
        ],
      },
    });
    expect(await gateway.findByReference("L41", new Date(NOW.getTime() - 730 * DAY))).toMatchObject({
      status: "found",
      transaction: { transactionId: "60012345678" },
    });
  });

  it("`since` that is not a date is a bug, thrown before anything is asked", async () => {
    await expect(gateway.findByReference("L41", new Date("not a date"))).rejects.toThrow(RangeError);
    expect(mock.requests).toHaveLength(0);
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
