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
import { AUTHORIZENET_ENDPOINTS, authorizeNetRefId, createAuthorizeNetGateway } from "./authorizenet.server";
import { CARD_MESSAGES } from "./card";
import { PAYMENT_MESSAGES, type ChargeRequest } from "./gateway";

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
          order: { invoiceNumber: "1001", description: "Invoice payment 1001" },
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
      order: { description: "Invoice payment 1001" },
      billTo: { firstName: "Cher" },
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
    expect(await gateway.void("60012345678")).toEqual({ status: "approved", transactionId: "60012345678" });
    expect(await gateway.refund("60012345678", 25050, "1111")).toEqual({
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
        },
      },
    ]);
  });

  it("a refused void says why; a void without an answer is unknown", async () => {
    mock.respond = (body) => anetJson(answers.transactionError(body, "16", "The transaction cannot be found."));
    expect(await gateway.void("60012345678")).toEqual({
      status: "declined",
      message: "The transaction cannot be found.",
    });
    mock.respond = never;
    expect(await gateway.void("60012345678")).toMatchObject({ status: "unknown" });
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
