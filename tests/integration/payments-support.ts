import { delay, http, HttpResponse } from "msw";
import { vi } from "vitest";
import { log } from "~/lib/log.server";
import { AUTHORIZENET_ENDPOINTS } from "~/payments/authorizenet.server";

/**
 * Test support for the payments tests: an msw stand-in for Authorize.net's
 * JSON endpoint (the only third party here; answers shaped as the API
 * documents them, with the UTF-8 byte-order mark it puts in front), and a
 * capture of every log call, to prove that no card number or CVC reaches one.
 */

// Test cards and CVCs used by the payments tests; none may appear in a log line or a stored row.
export const TEST_CARDS = [
  "4242424242424242",
  "4000000000000002",
  "4000000000000119",
  "4111111111111111",
  "5555555555554444",
  "378282246310005",
];
export const TEST_CVCS = ["847", "7319"];

// The processor's JSON as the tests read it: nested objects whose shape each test knows.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test double reads arbitrary processor JSON
export type AnetRequest = { createTransactionRequest: Record<string, any> };

export type AnetMock = {
  /** Every body posted to the endpoint, in order. */
  requests: AnetRequest[];
  /** The answer to the next requests (given the posted body). */
  respond: (body: AnetRequest) => Response | Promise<Response>;
};

export function authorizeNetHandlers(state: AnetMock, endpoint: string = AUTHORIZENET_ENDPOINTS.sandbox) {
  return [
    http.post(endpoint, async ({ request }) => {
      const body = (await request.json()) as AnetRequest;
      state.requests.push(body);
      return state.respond(body);
    }),
  ];
}

/** JSON as Authorize.net sends it: a UTF-8 BOM, then the text. */
export function anetJson(value: unknown, init: { status?: number } = {}): Response {
  const text = new TextEncoder().encode(JSON.stringify(value));
  const bytes = new Uint8Array(3 + text.length);
  bytes.set([0xef, 0xbb, 0xbf]);
  bytes.set(text, 3);
  return new HttpResponse(bytes, {
    status: init.status ?? 200,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

const refIdOf = (body: AnetRequest) => body.createTransactionRequest.refId as string | undefined;

export const answers = {
  approved(body: AnetRequest, over: { transId?: string; accountNumber?: string; accountType?: string } = {}) {
    return {
      transactionResponse: {
        responseCode: "1",
        authCode: "HH5414",
        avsResultCode: "Y",
        cvvResultCode: "P",
        cavvResultCode: "2",
        transId: over.transId ?? "60012345678",
        refTransID: "",
        transHash: "",
        testRequest: "0",
        accountNumber: over.accountNumber ?? "XXXX1111",
        accountType: over.accountType ?? "Visa",
        messages: [{ code: "1", description: "This transaction has been approved." }],
        transHashSha2: "",
        SupplementalDataQualificationIndicator: 0,
      },
      refId: refIdOf(body),
      messages: { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] },
    };
  },
  declined(body: AnetRequest, errorText = "This transaction has been declined.") {
    return {
      transactionResponse: {
        responseCode: "2",
        authCode: "000000",
        avsResultCode: "Y",
        cvvResultCode: "N",
        transId: "60012345679",
        refTransID: "",
        transHash: "",
        testRequest: "0",
        accountNumber: "XXXX1111",
        accountType: "Visa",
        errors: [{ errorCode: "2", errorText }],
      },
      refId: refIdOf(body),
      messages: { resultCode: "Error", message: [{ code: "E00027", text: "The transaction was unsuccessful." }] },
    };
  },
  transactionError(body: AnetRequest, errorCode: string, errorText: string) {
    return {
      transactionResponse: {
        responseCode: "3",
        authCode: "",
        transId: "0",
        refTransID: "",
        transHash: "",
        testRequest: "0",
        accountNumber: "XXXX1111",
        accountType: "Visa",
        errors: [{ errorCode, errorText }],
      },
      refId: refIdOf(body),
      messages: { resultCode: "Error", message: [{ code: "E00027", text: "The transaction was unsuccessful." }] },
    };
  },
  /** The request refused as a whole: no transaction at all. */
  requestError(
    body: AnetRequest,
    code = "E00007",
    text = "User authentication failed due to invalid authentication values.",
  ) {
    return { refId: refIdOf(body), messages: { resultCode: "Error", message: [{ code, text }] } };
  },
  heldForReview(body: AnetRequest) {
    return {
      transactionResponse: {
        responseCode: "4",
        transId: "60012345680",
        accountNumber: "XXXX1111",
        accountType: "Visa",
        messages: [{ code: "253", description: "Your order has been received. Thank you for your business!" }],
      },
      refId: refIdOf(body),
      messages: { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] },
    };
  },
};

/** An answer that never comes within any sane timeout. */
export async function never(): Promise<Response> {
  await delay(60_000);
  return anetJson({});
}

/**
 * Records every call to the logger (all levels, the raw arguments, before
 * pino's redaction: stricter than the written lines) and to the console.
 */
export function captureLogs() {
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(
      JSON.stringify(args, (_key, value) =>
        value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
      ),
    );
  };
  const spies = [
    ...(["trace", "debug", "info", "warn", "error", "fatal"] as const).map((level) =>
      vi.spyOn(log, level).mockImplementation(record as never),
    ),
    ...(["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(record),
    ),
  ];
  return {
    lines,
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

/** Every place a card number or CVC could hide in a text: plain, grouped by fours, as a JSON value. */
export function secretsIn(raw: string): string[] {
  const found: string[] = [];
  // A uuid (submission keys, cart ids) whose first groups happen to be all digits reads as a dashed digit run: not a card.
  const text = raw.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "(uuid)");
  const compact = text.replace(/[\s-]/g, "");
  for (const number of TEST_CARDS) if (compact.includes(number)) found.push(`card ${number.slice(-4)}`);
  for (const cvc of TEST_CVCS)
    if (text.includes(`"${cvc}"`) || text.includes(`:${cvc},`) || text.includes(`:${cvc}}`)) found.push(`cvc ${cvc}`);
  // Any run of 13 or more digits (grouped or not) standing alone is card-like (not one inside a hex id).
  if (/(?<![0-9A-Za-z])\d(?:[ -]?\d){12,}(?![0-9A-Za-z])/.test(text)) found.push("a run of 13+ digits");
  if (/"(cardNumber|cardCode|cvc|cvv|cardCVC)"\s*:/.test(text)) found.push("a card field by name");
  return found;
}

/** A valid invoice form as a visitor sends it, with an address of its own (confirmations are capped per day). */
export function invoiceFields(over: Record<string, string> = {}) {
  return {
    name: "Ada Lovelace",
    email: `inv-${crypto.randomUUID().slice(0, 8)}@example.com`,
    address: "1 Main St",
    address_2: "Suite 2",
    city: "Flint",
    state: "MI",
    zip: "48502",
    invoice_number: "INV-1001",
    invoice_payment_amount: "250.5",
    cardHolder: "Ada Lovelace",
    cardNumber: "4242 4242 4242 4242",
    cardExpMonth: "04",
    cardExpYear: "30",
    cardCVC: "847",
    ...over,
  };
}

/** A valid checkout form (billing and card), with an address of its own. */
export function checkoutFields(over: Record<string, string> = {}) {
  return {
    name: "Ada Lovelace",
    email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`,
    phone: "(810) 555-0199",
    address: "4 Mill Rd",
    city: "Flint",
    state: "MI",
    zip: "48503",
    cardNumber: "4242 4242 4242 4242",
    expiry: "04/30",
    cvv: "847",
    ...over,
  };
}

/** A valid residential booking (Flint, a morning, card 4242…) for `serviceDate`, with an address of its own. */
export function residentialFields(serviceDate: string, over: Record<string, string> = {}) {
  return {
    name: "Grace Hopper",
    phone: "(810) 555-0142",
    email: `res-${crypto.randomUUID().slice(0, 8)}@example.com`,
    address1: "12 Elm St",
    city: "Flint",
    state: "MI",
    zip: "48503",
    country: "United States",
    serviceDate,
    serviceTime: "Morning (8 AM to 11 AM)",
    contactMethod: "Phone Call",
    cardHolder: "Grace Hopper",
    cardNumber: "4242 4242 4242 4242",
    cardExpMonth: "04",
    cardExpYear: "30",
    cardCVC: "847",
    ...over,
  };
}
