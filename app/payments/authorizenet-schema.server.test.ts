import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anetJson,
  answers,
  authorizeNetHandlers,
  captureLogs,
  type AnetMock,
  type AnetRequest,
} from "../../tests/integration/payments-support";
import { AUTHORIZENET_ENDPOINTS, createAuthorizeNetGateway } from "./authorizenet.server";
import type { ChargeRequest } from "./gateway";

/**
 * Every request body the Authorize.net client builds, validated against Authorize.net's own schema
 * (tests/fixtures/AnetApiSchema.xsd) the way the API reads JSON: as XML, each object's members in
 * order as the elements of its sequence. Inputs are the longest and strangest a visitor can send.
 * xmllint (Debian's libxml2-utils) does the validating: without it this file fails, never skips.
 */

const SCHEMA = fileURLToPath(new URL("../../tests/fixtures/AnetApiSchema.xsd", import.meta.url));
const NAMESPACE = "AnetApi/xml/v1/schema/AnetApiSchema.xsd";
const DAY = 86_400_000;
const NOW = new Date("2026-04-15T16:00:00Z");

/** XML's Char production; anything else is written as a character reference, which the parser refuses. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function escapeText(text: string): string {
  return text
    .replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!)
    .replace(NOT_XML, (c) => `&#x${c.codePointAt(0)!.toString(16)};`);
}

function element(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => element(name, item)).join("");
  if (value === null || value === undefined) throw new Error(`${name}: null or undefined in a request body`);
  if (typeof value === "object") {
    const children = Object.entries(value).map(([key, child]) => element(key, child));
    return `<${name}>${children.join("")}</${name}>`;
  }
  return `<${name}>${escapeText(String(value))}</${name}>`;
}

/** A JSON request as Authorize.net reads it: its one top-level member is the root element, in the API's namespace. */
export function requestXml(body: unknown): string {
  const members = Object.entries(body as Record<string, unknown>);
  if (members.length !== 1) throw new Error(`a request has one top-level member, not ${members.length}`);
  const [root, value] = members[0]!;
  const inner = element(root, value).slice(`<${root}>`.length);
  return `<?xml version="1.0" encoding="utf-8"?>\n<${root} xmlns="${NAMESPACE}">${inner}`;
}

const scratch = mkdtempSync(path.join(tmpdir(), "anet-schema-"));
let files = 0;

/** xmllint's verdict on one document: ok, or its complaints. Throws when xmllint cannot be run. */
function validate(xml: string): { ok: boolean; errors: string } {
  const file = path.join(scratch, `request-${++files}.xml`);
  writeFileSync(file, xml, "utf8");
  const run = spawnSync("xmllint", ["--noout", "--schema", SCHEMA, file], { encoding: "utf8" });
  if (run.error) {
    throw new Error(
      `xmllint could not be run (${run.error.message}): install Debian's libxml2-utils (apt-get install -y libxml2-utils)`,
    );
  }
  return { ok: run.status === 0, errors: run.stderr.replaceAll(`${file}:`, "") };
}

/** Every string in a body, with where it is. */
function strings(value: unknown, at = ""): [string, string][] {
  if (typeof value === "string") return [[at, value]];
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, child]) => strings(child, at ? `${at}.${key}` : key));
  return [];
}

const codePoints = (text: string) => [...text].length;

// What the processor answers: enough for the client to go on to its next request.
const OK = { resultCode: "Ok", message: [{ code: "I00001", text: "Successful." }] };
const mock: AnetMock = {
  requests: [],
  respond: (raw) => {
    const body = raw as unknown as Record<string, Record<string, string> | undefined>;
    if (body.createTransactionRequest) return anetJson(answers.approved(raw));
    if (body.getSettledBatchListRequest) {
      // One batch, in the oldest of the windows asked: every window is then asked for.
      const { firstSettlementDate, lastSettlementDate } = body.getSettledBatchListRequest;
      const settled = "2026-02-10T06:00:00Z";
      if (
        Date.parse(settled) < Date.parse(firstSettlementDate!) ||
        Date.parse(settled) > Date.parse(lastSettlementDate!)
      )
        return anetJson({ messages: { resultCode: "Ok", message: [{ code: "I00004", text: "No records found." }] } });
      return anetJson({
        batchList: [{ batchId: "1221577", settlementTimeUTC: settled, settlementState: "settledSuccessfully" }],
        messages: OK,
      });
    }
    if (body.getUnsettledTransactionListRequest || body.getTransactionListRequest) {
      // The match only in the settled batch, so that every kind of request is made.
      const inBatch = Boolean(body.getTransactionListRequest);
      return anetJson({
        transactions: [
          {
            transId: inBatch ? "60012345678" : "60012345800",
            submitTimeUTC: "2026-04-14T21:55:00Z",
            transactionStatus: inBatch ? "settledSuccessfully" : "capturedPendingSettlement",
            invoiceNumber: inBatch ? "L41" : "L50",
          },
        ],
        messages: OK,
      });
    }
    return anetJson({
      transaction: {
        transId: body.getTransactionDetailsRequest!.transId,
        transactionType: "authCaptureTransaction",
        transactionStatus: "settledSuccessfully",
        authAmount: 250.5,
        settleAmount: 250.5,
        order: { invoiceNumber: "L41" },
        batch: { batchId: "1221577" },
      },
      messages: OK,
    });
  },
};
const server = setupServer(...authorizeNetHandlers(mock));
const logs = captureLogs();

// Credentials as long as the schema takes them (name: 25, transactionKey: 16).
const gateway = createAuthorizeNetGateway({
  loginId: "5KP3u95bQpv5KP3u95bQpv5K",
  transactionKey: "346HZ32z3fP4hTG2",
  endpoint: AUTHORIZENET_ENDPOINTS.sandbox,
  timeoutMs: 2_000,
  now: () => NOW,
});

const CARD = { number: "4111 1111 1111 1111", expMonth: "4", expYear: "30", cvc: "847" };
const charge = (over: Partial<ChargeRequest> & { holder?: string }): ChargeRequest => ({
  amountCents: 25050,
  currency: "USD",
  idempotencyKey: "3f1c9a52-8d7e-4b1a-9f0e-2c6d5b4a3e21",
  card: { ...CARD, holder: over.holder ?? "Ada Lovelace" },
  description: "Residential service 2026-05-02",
  reference: "L41",
  ...over,
});

const EMOJI = "\u{1F6AA}"; // 🚪: two UTF-16 units, one code point
const FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"; // 👨‍👩‍👧: five code points, one character
const FLAG = "\u{1F1FA}\u{1F1F8}"; // 🇺🇸: two code points, one character
const CONTROLS = "\u0000\u0001\u0007\u0008\u000B\u000C\u001B\u007F\u0085\u009F\u2028\u2029\uFFFE\uFFFF";

/** The charges: the largest and most hostile a form or an API client can post, and the smallest. */
const CHARGES: [string, ChargeRequest][] = [
  [
    "an emoji exactly where each field is cut",
    charge({
      // firstName is cut at 50: the emoji is its 50th code point (its 50th and 51st UTF-16 units).
      holder: `${"A".repeat(49)}${EMOJI} ${"B".repeat(48)}`,
      billing: {
        address: `${"1".repeat(59)}${EMOJI}${"x".repeat(40)}`,
        city: `${"C".repeat(39)}${EMOJI}C`,
        state: `${"S".repeat(39)}${FAMILY}`,
        zip: `${"4".repeat(19)}${FLAG}`,
        country: `${"U".repeat(59)}${EMOJI}${EMOJI}`,
      },
      customer: { email: `${"e".repeat(254)}${EMOJI}@example.com`, ip: "203.0.113.7" },
      description: `${"D".repeat(254)}${EMOJI}${"d".repeat(100)}`,
      invoiceNumber: "1001",
      reference: "L12345678901234567890123",
    }),
  ],
  [
    "control characters, lone surrogates and noncharacters everywhere",
    charge({
      holder: `Zoë${CONTROLS}Ana\uD83D\u00A0Ñúñez-O'Brien\t&\n<Sons>`,
      billing: {
        address: `12 Saginaw St\r\nApt 4${CONTROLS}`,
        city: `Flint\u0000\u000B`,
        state: `MI\uDC00`,
        zip: `48502\u0000-1234`,
        country: `United States${CONTROLS}`,
      },
      customer: { email: `ada\u0000@example.com\u000B`, ip: "::ffff:203.0.113.7" },
      description: `Invoice\u0000payment${CONTROLS}\uD800`,
      invoiceNumber: `INV\u000B-\u0000${"9".repeat(40)}`,
    }),
  ],
  [
    "everything as long as it gets, in many scripts, an IPv6 visitor",
    charge({
      holder: `${"Łukasz-Jürgen ".repeat(3)}${"Ωμέγα".repeat(11)}`,
      billing: {
        address: `${"Straße der Pariser Kommune ".repeat(20)}`,
        city: "東京都".repeat(30),
        state: "Michigan ".repeat(20),
        zip: "48502-1234 ".repeat(10),
        country: `${FLAG}`.repeat(60),
      },
      customer: { email: `${"long.name".repeat(40)}@example.com`, ip: "2001:db8:85a3::8a2e:370:7334" },
      description: `${"Résidentiel & <commercial> ".repeat(30)}${FAMILY.repeat(30)}`,
      invoiceNumber: "INV-".repeat(30),
    }),
  ],
  [
    "the smallest: one name, nothing optional, an address that is not one",
    charge({ holder: "Cher", customer: { ip: "999.1.1.1" }, billing: {}, description: " " }),
  ],
];

const bodies: { name: string; body: AnetRequest }[] = [];
const taking = async (name: string, act: () => Promise<unknown>) => {
  const before = mock.requests.length;
  await act();
  for (const body of mock.requests.slice(before)) bodies.push({ name, body });
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  for (const [name, request] of CHARGES) await taking(`charge: ${name}`, () => gateway.charge(request));
  await taking("void", () => gateway.void("60012345678", "L42"));
  await taking("refund", () => gateway.refund("60012345678", 99_999_999_99, "1111", `L43${CONTROLS}${"7".repeat(30)}`));
  await taking("lookup", () => gateway.lookup("60012345678"));
  // Far enough back for three settlement windows; found only in a settled batch, so every list is asked.
  await taking("findByReference", () => gateway.findByReference("L41", new Date(NOW.getTime() - 70 * DAY)));
});
afterAll(() => {
  server.close();
  logs.restore();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the check itself", () => {
  it("xmllint is installed (this file fails without it: Debian's libxml2-utils)", () => {
    const run = spawnSync("xmllint", ["--version"], { encoding: "utf8" });
    expect(run.error, "xmllint is missing: apt-get install -y libxml2-utils").toBeUndefined();
    expect(run.status).toBe(0);
  });

  it("refuses what Authorize.net refuses: members out of order, a field too long, a character XML cannot carry", () => {
    const good = {
      createTransactionRequest: {
        merchantAuthentication: { name: "login", transactionKey: "346HZ32z3fP4hTG2" },
        transactionRequest: {
          transactionType: "authCaptureTransaction",
          amount: "1.00",
          payment: { creditCard: { cardNumber: "4111111111111111", expirationDate: "2030-04", cardCode: "847" } },
          order: { invoiceNumber: "L1" },
          billTo: { firstName: "Ada", lastName: "Lovelace" },
        },
      },
    };
    expect(validate(requestXml(good)).ok).toBe(true);
    const request = good.createTransactionRequest.transactionRequest;
    const withRequest = (changed: Record<string, unknown>) => ({
      createTransactionRequest: { ...good.createTransactionRequest, transactionRequest: changed },
    });
    const { order, billTo, ...rest } = request;
    const bad = {
      "billTo before order": withRequest({ ...rest, billTo, order }),
      "17 digits": withRequest({
        ...request,
        payment: { creditCard: { ...request.payment.creditCard, cardNumber: "41111111111111111" } },
      }),
      "a 51-character first name": withRequest({ ...request, billTo: { firstName: "A".repeat(51) } }),
      "half an emoji": withRequest({ ...request, billTo: { firstName: `${"A".repeat(49)}${EMOJI}`.slice(0, 50) } }),
      "a vertical tab": withRequest({ ...request, billTo: { firstName: "Ada\u000BKing" } }),
      "a NUL": withRequest({ ...request, billTo: { firstName: "Ada\u0000King" } }),
    };
    for (const [name, body] of Object.entries(bad)) expect(validate(requestXml(body)).ok, name).toBe(false);
  });
});

describe("every request body the client builds is one Authorize.net's schema takes", () => {
  it("every kind of request was made", () => {
    const kinds = new Set(bodies.map(({ body }) => Object.keys(body)[0]));
    expect([...kinds].sort()).toEqual([
      "createTransactionRequest",
      "getSettledBatchListRequest",
      "getTransactionDetailsRequest",
      "getTransactionListRequest",
      "getUnsettledTransactionListRequest",
    ]);
    const types = bodies.flatMap(
      ({ body }) => body.createTransactionRequest?.transactionRequest?.transactionType ?? [],
    );
    expect(new Set(types)).toEqual(new Set(["authCaptureTransaction", "voidTransaction", "refundTransaction"]));
    // Three windows back to `since`: three batch lists.
    expect(bodies.filter(({ body }) => "getSettledBatchListRequest" in body)).toHaveLength(3);
    expect(bodies).toHaveLength(CHARGES.length + 2 + 1 + 1 + 3 + 1 + 1);
  });

  it("each validates (xmllint --schema)", () => {
    const failures = bodies
      .map(({ name, body }) => ({ name, kind: Object.keys(body)[0], ...validate(requestXml(body)) }))
      .filter((result) => !result.ok);
    expect(failures).toEqual([]);
  });

  it("no control character, line break, lone surrogate or noncharacter in any text sent", () => {
    for (const { name, body } of bodies)
      for (const [at, text] of strings(body))
        expect(text, `${name}: ${at}`).not.toMatch(/[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\uFFFE\uFFFF]/u);
  });
});

describe("how the texts are cut", () => {
  const sent = (index: number) =>
    bodies.filter(({ name }) => name.startsWith("charge"))[index]!.body.createTransactionRequest.transactionRequest;

  it("at the schema's length in characters, an emoji at the cut kept whole, one past it left out whole", () => {
    const request = sent(0);
    expect(request.billTo.firstName).toBe(`${"A".repeat(49)}${EMOJI}`);
    expect(request.billTo.address).toBe(`${"1".repeat(59)}${EMOJI}`);
    expect(request.billTo.city).toBe("C".repeat(39) + EMOJI);
    // A character of several code points that does not fit is left out, never split.
    expect(request.billTo.state).toBe("S".repeat(39));
    expect(request.billTo.zip).toBe("4".repeat(19));
    expect(request.billTo.country).toBe(`${"U".repeat(59)}${EMOJI}`);
    expect(request.customer.email).toBe(`${"e".repeat(254)}${EMOJI}`);
    expect(request.order.description).toBe(`Invoice 1001: ${"D".repeat(241)}`);
    expect(request.order.invoiceNumber).toBe("L1234567890123456789");
  });

  it("control characters become spaces (collapsed), half a surrogate pair U+FFFD; an IPv6-wrapped IPv4 is unwrapped", () => {
    const request = sent(1);
    expect(request.billTo.firstName).toBe("Zoë Ana\uFFFD Ñúñez-O'Brien &");
    expect(request.billTo.lastName).toBe("<Sons>");
    expect(request.billTo.address).toBe("12 Saginaw St Apt 4");
    expect(request.billTo.city).toBe("Flint");
    expect(request.billTo.state).toBe("MI\uFFFD");
    expect(request.billTo.zip).toBe("48502 -1234");
    expect(request.customer).toEqual({ email: "ada @example.com" });
    expect(request.customerIP).toBe("203.0.113.7");
    expect(codePoints(request.order.description)).toBeLessThanOrEqual(255);
  });

  it("an IPv6 address, or one that is not an address, is left out", () => {
    expect(sent(2).customerIP).toBeUndefined();
    expect(sent(3).customerIP).toBeUndefined();
    for (const [at, text] of strings(sent(2))) expect(codePoints(text), at).toBeLessThanOrEqual(255);
  });
});
