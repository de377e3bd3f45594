import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Connection } from "@db/client.server";
import { contactForm } from "~/forms/contact/handle.server";
import { employmentForm, ssnPlace } from "~/forms/employment/handle.server";
import { apiFormAction, formAction } from "~/forms/actions.server";
import { runForm, type FormDefinition } from "~/forms/pipeline";
import { promoForm } from "~/forms/promo/handle.server";
import { formatUsPhone } from "~/forms/schema-helpers";
import { fullQuoteForm, simpleQuoteForm } from "~/forms/quote/handle.server";
import { commercialServiceForm } from "~/forms/service/handle.server";
import { todayInDetroit } from "~/lib/company-time";
import { decryptText } from "~/lib/crypto.server";
import { env } from "~/lib/env.server";
import { log } from "~/lib/log.server";
import { renderSubmissionMail, type SubmissionMail } from "~/mail/render.server";
import { createTestDatabase } from "../support/db";
import {
  altchaToken,
  count,
  formPost,
  honeypotFields,
  imageFile,
  rows,
  sumAnswer,
  toFormData,
  nextIp,
} from "./forms-support";

/**
 * Every form's schema and handler against the real database: a valid
 * submission (HTML form without JS, and the SPEC §7 API route) is stored with
 * its outbox mail; each required field missing gives that field's error and
 * stores nothing.
 */
let conn: Connection;
beforeAll(async () => {
  conn = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await conn?.close();
});

/** The calendar date `days` from today in the company's time zone (the rule's own "today"). */
function inDays(days: number) {
  const today = new Date(`${todayInDetroit()}T00:00:00Z`);
  return new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

type Case = {
  name: string;
  def: FormDefinition;
  page: string;
  api: string;
  /** How the API sends it: JSON, or multipart (quote: a 'data' JSON part). */
  apiBody: "json" | "multipart-data" | "multipart-fields";
  apiParams?: Record<string, string>;
  table: string;
  valid: Record<string, string | string[]>;
  required: string[];
  keepsValues?: boolean;
  success: string;
};

// The phone as a visitor may type it: stored and mailed as "(810) 555-0142".
const person = { first_name: "Ada", last_name: "Lovelace", phone: "810.555.0142" };
const quote = {
  ...person,
  zip: "48532",
  description: "Two-car garage, insulated door.",
  contact_method: "Phone Call",
  quote_for: ["Garage Doors", "Windows"],
  financing: "Yes",
  consultation: "Not Interested",
  start_time: "ASAP",
};
const QUOTE_OK = "Submitted successfully! A representative will reach out within 48 hours.";

const cases: Case[] = [
  {
    name: "contact",
    def: contactForm,
    page: "/contact",
    api: "/api/store/contact/submit",
    apiBody: "json",
    table: "contact_submissions",
    valid: { ...person, email: "ada@example.com", details: "The spring broke this morning." },
    required: ["first_name", "last_name", "email", "phone", "details"],
    success: "Your message has been sent!",
  },
  {
    name: "full quote",
    def: fullQuoteForm,
    page: "/request-quote",
    api: "/api/store/request-quote/commercial",
    apiBody: "multipart-data",
    apiParams: { type: "commercial" },
    table: "quote_requests",
    valid: {
      ...quote,
      quote_for: ["Windows", "Other"],
      email: "quote@example.com",
      existing_customer: "No",
      quote_type: "Residential",
    },
    required: [
      "first_name",
      "last_name",
      "phone",
      "email",
      "zip",
      "contact_method",
      "financing",
      "consultation",
      "start_time",
      "existing_customer",
      "quote_type",
    ],
    success: QUOTE_OK,
  },
  {
    name: "simple quote",
    def: simpleQuoteForm,
    page: "/residential-garage-doors",
    api: "/api/store/quote/submit",
    apiBody: "json",
    table: "quote_requests",
    valid: { ...quote, email: "simple@example.com", quote_type: "Residential" },
    required: [
      "first_name",
      "last_name",
      "phone",
      "email",
      "zip",
      "contact_method",
      "financing",
      "consultation",
      "start_time",
    ],
    success: QUOTE_OK,
  },
  {
    name: "commercial service",
    def: commercialServiceForm,
    page: "/commercial-schedule-service",
    api: "/api/store/request-service/commercial",
    apiBody: "multipart-fields",
    table: "service_requests",
    valid: {
      name: "Northside Logistics",
      phone: "(517) 555-0190",
      email: "dock@example.com",
      address1: "900 Industrial Parkway",
      address2: "Dock 3",
      city: "Lansing",
      state: "MI",
      zip: "48906",
      country: "United States",
      serviceDate: inDays(3),
      serviceTime: "Morning (8 AM to 11 AM)",
      description: "Door will not close.",
      contactMethod: "Email",
    },
    required: [
      "name",
      "phone",
      "email",
      "address1",
      "city",
      "state",
      "zip",
      "country",
      "serviceDate",
      "serviceTime",
      "contactMethod",
    ],
    keepsValues: true,
    success: "Submitted successfully!",
  },
  {
    name: "promo",
    def: promoForm,
    page: "/discount-signup-2025",
    api: "/api/store/promo/submit",
    apiBody: "json",
    table: "promo_signups",
    valid: { ...person, email: "promo@example.com", product: "Patio Doors" },
    required: ["first_name", "last_name", "email", "phone", "product"],
    success: "Your message has been sent!",
  },
  {
    name: "employment",
    def: employmentForm,
    page: "/employment",
    api: "/api/store/employment/submit",
    apiBody: "json",
    table: "employment_applications",
    valid: {
      firstName: "Dorothy",
      lastName: "Vaughan",
      middleInitial: "J",
      address: "41 Elm Street",
      address2: "2B",
      city: "Flint",
      state: "MI",
      zip: "48503",
      phone: "(810) 555-0144",
      email: "dorothy@example.com",
      dateAvailable: "2030-06-01",
      ssn: "123-45-6789",
      desiredSalary: "$26/hour",
      position: "Commercial Door Technician",
      usCitizen: "yes",
      authorized: "yes",
      workedBefore: "no",
      workedWhen: "",
      convicted: "no",
      convictionExplanation: "",
      education: "Associate Degree",
      qualificationStatement: "Six years servicing overhead doors.",
    },
    required: [
      "firstName",
      "lastName",
      "address",
      "city",
      "state",
      "zip",
      "phone",
      "email",
      "dateAvailable",
      "ssn",
      "desiredSalary",
      "position",
      "usCitizen",
      "authorized",
      "workedBefore",
      "convicted",
      "education",
      "qualificationStatement",
    ],
    success: "Submitted successfully!",
  },
];

function apiRequest(c: Case, token: string): Request {
  const body = { ...c.valid, recaptcha_token: token };
  if (c.apiBody === "json") return formPost(c.api, body, { Origin: "", "Sec-Fetch-Site": "" });
  const fd = new FormData();
  if (c.apiBody === "multipart-data") {
    fd.append("data", JSON.stringify(body));
  } else {
    for (const [k, v] of Object.entries(body)) for (const item of Array.isArray(v) ? v : [v]) fd.append(k, item);
  }
  fd.append("photo", imageFile("one.png"));
  fd.append("photo", imageFile("two.png"));
  return formPost(c.api, fd);
}

for (const c of cases) {
  describe(`${c.name} form`, () => {
    it("HTML form (no JavaScript, sum answered): stored with its outbox mail, then the form resets (or keeps its values)", async () => {
      const before = await count(conn.db, c.table);
      const outboxBefore = await count(conn.db, "outbox");
      const request = formPost(c.page, toFormData({ ...c.valid, ...honeypotFields(), ...sumAnswer() }));
      const response = await formAction(
        c.def,
        { request, url: new URL(request.url) },
        { db: conn.db, clientIp: "198.51.100.20" },
      );
      expect(response.init?.status).toBe(200);
      expect(response.data).toMatchObject({ form: c.def.id, status: "success", message: c.success });
      if (c.keepsValues)
        expect(response.data.lastResult?.initialValue).toMatchObject({ name: c.valid.name, city: c.valid.city });
      else expect(response.data.lastResult).toEqual({ initialValue: null });

      expect(await count(conn.db, c.table)).toBe(before + 1);
      const [row] = await rows<{ id: number; client_ip: string; phone: string }>(
        conn.db,
        `select * from ${c.table} order by id desc limit 1`,
      );
      expect(row!.client_ip).toBe("198.51.100.20");
      const phone = formatUsPhone(String(c.valid.phone));
      expect(phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
      expect(row!.phone).toBe(phone);
      const mail = await rows<{
        to: string;
        subject: string;
        text: string;
        html: string | null;
        content: SubmissionMail | null;
        status: string;
      }>(conn.db, `select * from outbox where source_table = '${c.table}' and source_id = ${row!.id} order by id`);
      expect(await count(conn.db, "outbox")).toBe(outboxBefore + 2);
      expect(mail.map((m) => m.to)).toEqual(["info@example.com", String(c.valid.email)]);
      expect(mail[0]!.subject).toContain(`#${row!.id}`);
      expect(mail[0]!.text).toContain(phone);
      // The worker renders the HTML when it sends the mail, from what the row says.
      expect(
        mail.every(
          (m) => m.status === "pending" && m.html === null && renderSubmissionMail(m.content!).html.includes("</html>"),
        ),
      ).toBe(true);
    });

    it(`API ${c.api}: {success, message} through the same handler`, async () => {
      const before = await count(conn.db, c.table);
      const response = await apiFormAction(
        c.def,
        { request: apiRequest(c, await altchaToken()) },
        { db: conn.db, clientIp: nextIp(), ...(c.apiParams ? { overrides: { quote_type: "Commercial" } } : {}) },
      );
      const json = await response.json();
      expect(json, JSON.stringify(json)).toEqual({ success: true, message: c.success });
      expect(await count(conn.db, c.table)).toBe(before + 1);
    });

    it("each required field missing: that field's error, nothing stored", async () => {
      const before = await count(conn.db, c.table);
      const outboxBefore = await count(conn.db, "outbox");
      for (const field of c.required) {
        const values: Record<string, string | string[]> = { ...c.valid };
        delete values[field];
        const outcome = await runForm(
          c.def,
          formPost(c.page, toFormData({ ...values, ...honeypotFields(), ...sumAnswer() })),
          { db: conn.db, clientIp: nextIp() },
        );
        expect(outcome.status, field).toBe(400);
        expect(Object.keys(outcome.fieldErrors), field).toEqual([field]);
        expect(outcome.fieldErrors[field]![0], field).toMatch(/required|Please answer|Please tell us|Please choose/);
        // The values come back for the no-JS re-render.
        expect(outcome.reply?.initialValue).toMatchObject({
          [Object.keys(values)[0]!]: values[Object.keys(values)[0]!],
        });
      }
      expect(await count(conn.db, c.table)).toBe(before);
      expect(await count(conn.db, "outbox")).toBe(outboxBefore);
    });
  });
}

describe("form-specific rules", () => {
  it("full quote via the API stores the type from the path, the photos and the 'full' source", async () => {
    const [row] = await rows<{ id: number; quote_type: string; source: string; quote_for: string[] }>(
      conn.db,
      "select id, quote_type, source, quote_for from quote_requests where email = 'quote@example.com' order by id desc limit 1",
    );
    expect(row).toMatchObject({ quote_type: "Commercial", source: "full", quote_for: ["Windows", "Other"] });
    const uploads = await rows<{ file_name: string; mime: string; size: number }>(
      conn.db,
      `select file_name, mime, size from uploads where submission_table = 'quote_requests' and submission_id = ${row!.id} order by id`,
    );
    expect(uploads.map((u) => [u.file_name, u.mime])).toEqual([
      ["one.png", "image/png"],
      ["two.png", "image/png"],
    ]);
  });

  it("simple quote records its source and refuses products of the other list", async () => {
    const [row] = await rows<{ source: string; existing_customer: string | null }>(
      conn.db,
      "select source, existing_customer from quote_requests where email = 'simple@example.com' limit 1",
    );
    expect(row).toEqual({ source: "simple", existing_customer: null });
    const outcome = await runForm(
      simpleQuoteForm,
      formPost(
        "/residential-windows",
        toFormData({
          ...quote,
          email: "x@example.com",
          quote_type: "Residential",
          quote_for: ["Loading Docks"],
          ...sumAnswer(),
          ...honeypotFields(),
        }),
      ),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(outcome.fieldErrors.quote_for).toEqual(["Please choose from the listed products."]);
  });

  it("a business name belongs on a commercial quote only", async () => {
    const outcome = await runForm(
      fullQuoteForm,
      formPost(
        "/request-quote",
        toFormData({
          ...quote,
          email: "y@example.com",
          existing_customer: "Yes",
          quote_type: "Residential",
          business_name: "Acme",
          ...sumAnswer(),
          ...honeypotFields(),
        }),
      ),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(outcome.fieldErrors).toEqual({ business_name: ["A business name belongs on a commercial quote."] });
  });

  it("commercial service refuses a date in the past (America/Detroit)", async () => {
    const outcome = await runForm(
      commercialServiceForm,
      formPost(
        "/request-service",
        toFormData({ ...cases[3]!.valid, serviceDate: inDays(-1), ...sumAnswer(), ...honeypotFields() }),
      ),
      { db: conn.db, clientIp: nextIp() },
    );
    expect(outcome.fieldErrors).toEqual({ serviceDate: ["Please choose today or a later date."] });
  });

  it("employment: the SSN is stored encrypted, absent from every e-mail and from the log", async () => {
    const stored = await rows<{
      id: number;
      ssn_encrypted: string;
      secret_ref: string;
      us_citizen: boolean;
      worked_before: boolean;
    }>(
      conn.db,
      "select id, ssn_encrypted, secret_ref, us_citizen, worked_before from employment_applications order by id limit 2",
    );
    const row = stored[0];
    expect(row!.ssn_encrypted).not.toMatch(/6789/);
    expect(decryptText(row!.ssn_encrypted, ssnPlace(row!.secret_ref))).toBe("123-45-6789");
    // Bound to its row: the same ciphertext read as another row's value does not decrypt.
    expect(stored).toHaveLength(2);
    expect(() => decryptText(row!.ssn_encrypted, ssnPlace(stored[1]!.secret_ref))).toThrow();
    expect(row).toMatchObject({ us_citizen: true, worked_before: false });
    const mail = await rows<{ text: string; content: SubmissionMail }>(
      conn.db,
      "select text, content from outbox where source_table = 'employment_applications'",
    );
    expect(mail.length).toBeGreaterThan(0);
    for (const m of mail) {
      expect(`${m.text}${renderSubmissionMail(m.content).html}`).not.toMatch(/6789/);
      expect(m.text).toContain("Social Security #");
    }

    // Everything the pipeline logs on a submission, on success and on a failure.
    const logged: unknown[] = [];
    const spies = (["info", "warn", "error"] as const).map((level) =>
      vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => void logged.push(args)) as never),
    );
    try {
      const ok = await runForm(
        employmentForm,
        formPost(
          "/employment",
          toFormData({ ...cases[5]!.valid, ssn: "987 65 4321", ...sumAnswer(), ...honeypotFields() }),
        ),
        { db: conn.db, clientIp: nextIp() },
      );
      expect(ok.ok).toBe(true);
      const failing: FormDefinition<typeof employmentForm.schema> = {
        ...employmentForm,
        async handle(tx, value, ctx) {
          await employmentForm.handle(tx, value, ctx);
          throw new Error(`insert failed for ${value.ssn}`);
        },
      };
      const before = await count(conn.db, "employment_applications");
      const failed = await runForm(
        failing,
        formPost(
          "/employment",
          toFormData({ ...cases[5]!.valid, ssn: "987-65-4322", ...sumAnswer(), ...honeypotFields() }),
        ),
        { db: conn.db, clientIp: nextIp() },
      );
      expect(failed).toMatchObject({ ok: false, status: 500, message: "An error occurred. Please try again." });
      expect(await count(conn.db, "employment_applications")).toBe(before);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const text = JSON.stringify(logged);
    expect(logged.length).toBeGreaterThan(1);
    expect(text).not.toMatch(/987.?65.?432/);
  });

  it("employment: a refused application never sends the SSN back (field errors, captcha, rate limit)", async () => {
    const ssn = "987-65-4329";
    const post = (extra: Record<string, string>) =>
      formPost("/employment", toFormData({ ...cases[5]!.valid, ssn, ...honeypotFields(), ...extra }));
    const refusals = [
      await formAction(
        employmentForm,
        { request: post({ email: "not-an-address", ...sumAnswer() }) },
        { db: conn.db, clientIp: nextIp() },
      ),
      await formAction(
        employmentForm,
        { request: post({ captcha_answer: "99", captcha_challenge: sumAnswer().captcha_challenge }) },
        { db: conn.db, clientIp: nextIp() },
      ),
    ];
    const ip = nextIp();
    for (let i = 0; i <= env().RATE_LIMIT_MAX; i++) {
      refusals.push(
        await formAction(employmentForm, { request: post({ email: "not-an-address" }) }, { db: conn.db, clientIp: ip }),
      );
    }
    expect(refusals.map((r) => r.init?.status)).toContain(429);
    for (const refusal of refusals) {
      expect(refusal.data.status).toBe("error");
      expect(refusal.data.lastResult?.initialValue).toMatchObject({ firstName: cases[5]!.valid.firstName });
      expect(refusal.data.lastResult?.initialValue).not.toHaveProperty("ssn");
      expect(JSON.stringify(refusal.data)).not.toMatch(/987.?65.?4329/);
    }
  });
});
